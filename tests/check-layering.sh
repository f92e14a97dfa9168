#!/bin/sh
# The layer rule: util -> model, redact (the redaction engine, beside the model) -> reader / writer
# -> convert (the pipeline), archive (bulk export) -> cli.  Only the reader talks to SQLite, only
# the CLI prints and exits, no layer includes a header of a layer above it, and a writer object
# exports its ops struct and nothing else.
# usage: check-layering.sh SOURCE_DIR [BUILD_DIR]   (without BUILD_DIR the nm check is skipped)
src=$1 build=${2:-}
cd "$src" || exit 2
bad=0 checks=0
fail() { echo "layering: $*"; bad=1; }
report() { # prefix lines: each non-empty line is a failure
	[ -n "$2" ] || return 0
	printf '%s\n' "$2" | sed "s|^|layering: $1|"
	bad=1
}
below="src/util src/model src/redact src/reader src/writer src/convert src/archive"

# SQLite, cJSON
checks=$((checks + 1))
for f in $(grep -l 'sqlite3.h' -r src | grep -v '^src/reader/'); do fail "sqlite3.h outside the reader: $f"; done
for f in $(grep -l 'cJSON' -r src); do fail "cJSON in src (output must keep exact numbers): $f"; done

# The SQLite backend's files alone include sqlite3.h; the generic model and writers other than
# Hermes's never see Hermes's rows (model_hermes.h).
checks=$((checks + 1))
for f in $(grep -l 'sqlite3.h' -r src/reader | grep -v '^src/reader/hermes_db'); do fail "sqlite3.h outside the SQLite backend (hermes_db*): $f"; done
for f in $(grep -l 'model_hermes.h' src/model/model.c src/writer/*.c | grep -v 'writer_hermes.c'); do fail "the generic model or a writer other than hermes knows Hermes's rows: $f"; done

# Harnesses are named by the registry alone (src/reader/harness.c and the locators
# src/reader/*_locate.c, src/reader/HARNESS/locate.c, whose .name fields give the words): nowhere else in the reader or the
# CLI is a harness word a string literal of its own ("claude", or a prefix "claude:"), so that
# --from, list WORD, WORD:ID, help and completions all come from the registry.
checks=$((checks + 1))
for w in $(sed -n 's/^[[:space:]]*\.name = "\([a-z0-9-]*\)",$/\1/p' src/reader/*_locate.c src/reader/*/locate.c); do
	report "a harness named outside the registry: " "$(grep -nE "\"$w:?\"" -r src/cli src/reader | grep -vE '^src/reader/(harness|[a-z0-9]+_locate|[a-z0-9]+/locate)\.c:')"
done

# The CLI reaches a harness through the registry and a format through the writer registry or the
# library (txc_install): it calls no harness's or format's own function (txc_hermes_*, txc_codex_*,
# txc_claude_*).
checks=$((checks + 1))
report "the CLI calls a harness's or format's own function: " "$(grep -nE '\btxc_(hermes|codex|claude)_[a-z_]+\(' -r src/cli)"

# The façade (store.c, source.h) reads no harness's rows: Hermes's are its backends' business
# (hermes_source.h), reached through the ops.  The model is the interchange: a reader or mapping
# of any other harness (every src/reader and src/model file not named hermes_* / model_hermes)
# builds the model only and writes no Hermes-shaped rows; the Hermes writer makes them
# (src/writer/hermes_rows.c).
checks=$((checks + 1))
for f in $(grep -lE '^#include "(txc/model_hermes|hermes_source)\.h"' src/reader/*.c src/reader/*.h src/model/*.c |
	grep -vE '^src/(reader/hermes_[a-z_]+|model/model_hermes)\.[ch]$'); do
	fail "knows Hermes's rows: $f"
done

# Output and exits below the CLI: no exit(), nothing to stdout or stderr (printf, puts,
# fprintf/fputs/fwrite/fputc to a standard stream: any mention of stdout or stderr), and no
# "txc: " text: the CLI words every message.  Writing to a FILE the caller passed (a writer's
# sink) or to a file a reader made (a snapshot, a spooled stdin) is not output.  The one
# exception is alloc.c's out-of-memory report, which cannot go back up through the layers.
checks=$((checks + 1))
report "output or exit below the CLI: " "$(grep -nE '\bexit\(|\b(printf|vprintf|puts|putchar|perror)\(|\b(stdout|stderr)\b|"txc: ' \
	-r $below | grep -v '^src/util/alloc.c:')"

# Upward includes.  util: util.h json.h diag.h; model: model.h artifacts.h; redact: redact.h;
# reader: reader.h http.h source.h; writer: writer.h; convert: convert.h install.h; archive: archive.h and
# its own (archive_int.h, pool.h); cli: src/cli/*.h.  The archive keeps a folder of files a writer
# made: it needs the writer (its name, extension and index page) and the model (a session's
# facts), never a reader or the pipeline (the caller's render callback converts the session) nor the CLI.
no_include() { # layer "files..." "header|header..."
	for f in $2; do
		grep -nE "^#include [<\"]([a-z._]*/)*($3)[>\"]" "$f" /dev/null | sed "s|^|$1 includes a header of a layer above it: |"
	done
}
checks=$((checks + 1))
cli_h='cli/[a-z_]+\.h|cli\.h|commands\.h|locate\.h|files\.h|output\.h'
report "" "$(
	no_include util "$(find src/util -name '*.[ch]') include/txc/util.h include/txc/json.h include/txc/diag.h" \
		"model\.h|artifacts\.h|redact\.h|reader\.h|http\.h|source\.h|writer\.h|convert\.h|install\.h|archive\.h|$cli_h"
	no_include model "$(find src/model -name '*.[ch]') include/txc/model.h include/txc/artifacts.h" \
		"reader\.h|http\.h|source\.h|writer\.h|convert\.h|install\.h|archive\.h|$cli_h"
	no_include redact "$(find src/redact -name '*.[ch]') include/txc/redact.h" \
		"reader\.h|http\.h|source\.h|writer\.h|writer_[a-z]+\.h|convert\.h|install\.h|archive\.h|$cli_h"
	no_include reader "$(find src/reader -name '*.[ch]') include/txc/reader.h include/txc/http.h" "writer\.h|convert\.h|install\.h|archive\.h|$cli_h"
	no_include writer "$(find src/writer -name '*.[ch]') include/txc/writer.h" "reader\.h|http\.h|source\.h|convert\.h|install\.h|archive\.h|$cli_h"
	# the pipeline sits on the public reader and writer interfaces: never a backend's private header
	no_include convert "$(find src/convert -name '*.[ch]') include/txc/convert.h include/txc/install.h" "source\.h|hermes_db\.h|render\.h|archive\.h|$cli_h"
	no_include archive "$(find src/archive -name '*.[ch]') include/txc/archive.h" "reader\.h|http\.h|source\.h|convert\.h|install\.h|$cli_h"
)"

# Writer objects export their ops struct only (txc_writer_<name>); writer.c is the registry.
# (shared helpers of a format live in their own objects, e.g. claude_ids.c; streaming is an op)
if [ -z "$build" ]; then
	echo "layering: skipped the writer exports check (no build directory given)"
elif ! command -v nm > /dev/null; then
	echo "layering: skipped the writer exports check (no nm)"
else
	objs=$(find "$build" -path '*src/writer/writer_*.o' 2> /dev/null)
	if [ -z "$objs" ]; then
		echo "layering: skipped the writer exports check (no writer objects under $build)"
	else
		checks=$((checks + 1))
		for o in $objs; do
			w=$(basename "$o" | sed 's/\.c\.o$//; s/\.o$//')
			for sym in $(nm -g --defined-only "$o" | awk '{print $3}'); do
				[ "$sym" = "txc_writer_${w#writer_}" ] && continue
				case $sym in __*) continue ;; esac # the compiler's (sanitizers, coverage), not ours
				fail "$w.o exports $sym: a writer exports its ops struct only"
			done
		done
	fi
fi

# One hash table, util's (strmap.h): no other file probes slots of its own ("& (cap - 1)" is
# how every hand-written one stepped; the reader's id set was the last).
checks=$((checks + 1))
report "a hash table of its own (use txc_strmap): " "$(grep -nE '& \(cap - 1\)' -r src | grep -v '^src/util/strmap.c:')"

# No global sort keys: a file that calls qsort keeps no pointer at file scope for its comparison
# to read (qsort has no context: txc_sort, util/sort.c, takes one).
checks=$((checks + 1))
report "a sort key in a global (use txc_sort): " "$(for f in $(grep -lE '\bqsort\(' -r src); do
	grep -nE '^static [^=(]*\*[a-z_]+;$' "$f" /dev/null
done)"

# diag.c is below the tables: it words a usage error with the command's name it is given and
# never looks a command up (it did, and options.c -> diag.c -> options.c was a circle).
checks=$((checks + 1))
report "diag.c reads the command tables: " "$(grep -nE '\bcli_(command|commands|command_named|options|cmd_takes)\(' src/cli/diag.c)"

# Commands call no command: a cmd_<name>.o exports its command (cmd_<name>) and nothing else, so
# no other object (another cmd_*.c, follow.c, a helper) can call into it; what commands share
# lives below them (output.c, convert_run.c, select.c, ...).
if [ -n "$build" ] && command -v nm > /dev/null; then
	objs=$(find "$build" -path '*src/cli/cmd_*.o' 2> /dev/null)
	if [ -z "$objs" ]; then
		echo "layering: skipped the command exports check (no command objects under $build)"
	else
		checks=$((checks + 1))
		for o in $objs; do
			c=$(basename "$o" | sed 's/\.c\.o$//; s/\.o$//')
			for sym in $(nm -g --defined-only "$o" | awk '{print $3}'); do
				[ "$sym" = "$c" ] && continue
				case $sym in __*) continue ;; esac
				fail "$c.o exports $sym: a command exports its entry point only (shared code goes below the commands)"
			done
		done
	fi
fi

# No database is part of the source (a test or script that wrote one outside its work dir left
# a 0-byte e.db at the root once): tests build theirs from SQL in their own work dir.
if git -C "$src" rev-parse --git-dir > /dev/null 2>&1; then
	checks=$((checks + 1))
	report "a database tracked in the source: " "$(git -C "$src" ls-files -- '*.db' '*.db-wal' '*.db-shm' '*.db-journal' '*.sqlite')"
fi

[ $bad = 0 ] && echo "layering: $checks passed, 0 failed"
exit $bad
