#!/bin/sh
# --remote where libcurl cannot be used: a libcurl.so.4 without libcurl's functions, one whose
# curl_global_init fails, one that gives no handle (tests/tools/fakecurl.c, found first through
# LD_LIBRARY_PATH).  Each is one error line, exit 1, nothing on stdout; no request is made.
# usage: nocurl-tests.sh TXC FAKE_NONE_DIR FAKE_INIT_DIR WORK_DIR
set -u
txc=$1 none=$2 init=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
[ -e "$none/libcurl.so.4" ] && [ -e "$init/libcurl.so.4" ] || { echo "nocurl-tests: no stand-in libcurl.so.4"; exit 1; }
noload="txc: error: cannot load libcurl, which reading a Hermes dashboard needs (apt-get install libcurl4)"
expect_rc 1 "a libcurl.so.4 that is not libcurl" env LD_LIBRARY_PATH="$none" "$txc" list --remote http://127.0.0.1:1 --token t
[ "$(cat err.txt)" = "$noload" ] && [ ! -s out.txt ] && ok "said: cannot load libcurl" || bad "not libcurl: $(cat err.txt)"
expect_rc 1 "curl_global_init fails" env LD_LIBRARY_PATH="$init" FAKECURL_INIT_FAILS=1 "$txc" convert x --to hermes \
	--remote http://127.0.0.1:1 --token t
[ "$(cat err.txt)" = "$noload" ] && [ ! -s out.txt ] && ok "said: cannot load libcurl" || bad "init fails: $(cat err.txt)"
expect_rc 1 "no HTTP client handle" env LD_LIBRARY_PATH="$init" "$txc" list --remote http://127.0.0.1:1 --token t
[ "$(cat err.txt)" = "txc: error: cannot start an HTTP client" ] && [ ! -s out.txt ] && ok "said: cannot start an HTTP client" ||
	bad "no handle: $(cat err.txt)"
summary nocurl
[ "$fails" = 0 ]
