#!/bin/sh
# Shell completions that know the store (issue 30 item 8): session ids with their titles, for
# every harness (claude:ID too), the profiles, the sources, the formats; each shell's script
# driven in that shell (bash through its COMP_* variables, zsh through its completion system in
# tmux and through its helper with _describe stubbed, fish through `complete -C`).
# usage: complete-tests.sh TXC MKDB JSONCHECK TESTS_DIR WORK_DIR
set -u
txc=$1 mkdb=$2 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work/bin" "$work/home/profiles/work" || exit 1
cd "$work" || exit 1
. "$(dirname "$0")/common.sh"
ln -s "$txc" bin/txc
PATH=$work/bin:$PATH CLAUDE_CONFIG_DIR=$src/fixtures/claude-config
export PATH CLAUDE_CONFIG_DIR
esc=$(printf '\033')
cat > c.sql << SQL
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL NOT NULL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);
INSERT INTO sessions VALUES ('20260914_101502_a1b2c3', 'cli', 1789380902, 'Fix the retry loop');
INSERT INTO sessions VALUES ('20260915_090000_d4e5f6', 'telegram', 1789462800, 'Tab	and${esc}[31m escape');
INSERT INTO sessions VALUES ('7f3e9a21', 'discord', 1789000000, NULL);
SQL
"$mkdb" home/state.db c.sql || exit 1
"$mkdb" home/profiles/work/state.db "$src/fixtures/minimal.sql" || exit 1
"$mkdb" other.db "$src/fixtures/minimal.sql" || exit 1

# ---- txc __complete: what the scripts ask ----
expect_rc 0 "__complete sessions" txc __complete sessions 2026 convert --home home
[ "$(cut -f1 out.txt | tr '\n' ' ')" = "20260915_090000_d4e5f6 20260914_101502_a1b2c3 " ] && ok ||
	bad "ids with prefix 2026: $(cat out.txt)"
grep -q "^20260914_101502_a1b2c3	Fix the retry loop\$" out.txt && ok "a session's title after a tab" || bad "no title: $(cat out.txt)"
grep -q "$esc" out.txt && bad "a title's escape reaches the shell" || ok "a title's control characters are spaces"
[ "$(wc -l < out.txt)" = 2 ] && ok "a title's tab cannot start a line" || bad "lines: $(cat out.txt)"
expect_rc 0 "--db on the line" txc __complete sessions "" view --db=other.db
[ "$(cut -f1 out.txt | tr '\n' ' ')" = "m2 m1 " ] && ok || bad "--db=other.db: $(cat out.txt)"
expect_rc 0 "--profile on the line" txc __complete sessions m --home home --profile work
[ "$(cut -f1 out.txt | tr '\n' ' ')" = "m2 m1 " ] && ok || bad "--profile work: $(cat out.txt)"
expect_rc 0 "claude: prefix" txc __complete sessions claude:5f convert
grep -q '^claude:5f3c2a10-0000-4000-8000-000000000001' out.txt && ok || bad "claude:5f: $(cat out.txt)"
expect_rc 0 "--from claude" txc __complete sessions 9b view --from claude
grep -q '^9b1d7e42-0000-4000-8000-000000000002' out.txt && ok || bad "--from claude: $(cat out.txt)"
expect_rc 0 "a half-typed line: --from of no harness, --db without its value" txc __complete sessions 7 view --home home --from nosuch --db
[ "$(cut -f1 out.txt)" = 7f3e9a21 ] && ok || bad "half-typed line: $(cat out.txt)"
expect_rc 0 "--legacy and a word that names no harness" txc __complete sessions nosuch:x view --home home --legacy
[ -s out.txt ] && bad "nosuch:x: $(cat out.txt)" || ok
expect_rc 0 "profiles" txc __complete profiles "" list --home home
[ "$(tr '\n' ' ' < out.txt)" = "default work " ] && ok || bad "profiles: $(cat out.txt)"
expect_rc 0 "sources" txc __complete sources "" list --home home
[ "$(tr '\n' ' ' < out.txt)" = "telegram cli discord " ] && ok || bad "sources: $(cat out.txt)"
expect_rc 0 "no store: nothing, quietly" txc __complete sessions "" view --home nowhere
[ -s out.txt ] && bad "output without a store: $(cat out.txt)" || ok
expect_rc 2 "__complete of nothing known" txc __complete tunes x
grep -q . out.txt && bad "stdout on a usage error" || ok
txc --help | grep -q __complete && bad "txc --help lists the hidden __complete" || ok "__complete is hidden"

# ---- bash ----
txc completions bash > c.bash
cat > drive.bash << 'EOF'
. ./c.bash
comp() { # LINE: what bash offers at its end (COMP_WORDS split as bash splits, at = and : too)
	COMP_LINE=$1 COMP_POINT=${#1}
	local IFS=$' \t\n'
	read -ra COMP_WORDS <<< "$(printf '%s' "$1" | sed 's/\([=:]\)/ \1 /g')"
	case $1 in *" " | *= | *:) COMP_WORDS+=("") ;; esac
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	# bash makes "--to=" the words "--to" "=" and cur "=" (empty after it): the same here
	case $1 in *=) unset 'COMP_WORDS[COMP_CWORD]'; COMP_CWORD=$((COMP_CWORD - 1)) ;; esac
	_txc
	echo "${COMPREPLY[*]}"
}
comp "$1"
EOF
b() { bash drive.bash "$1"; }
[ "$(b 'txc convert --home home 2026')" = "20260915_090000_d4e5f6 20260914_101502_a1b2c3" ] && ok "bash: txc convert 2026<TAB>" ||
	bad "bash convert 2026: $(b 'txc convert --home home 2026')"
[ "$(b 'txc view --home home ')" = "20260915_090000_d4e5f6 20260914_101502_a1b2c3 7f3e9a21" ] && ok "bash: txc view <TAB>" ||
	bad "bash view: $(b 'txc view --home home ')"
r=$(b 'txc convert claude:5f')
[ "$r" = "5f3c2a10-0000-4000-8000-000000000001" ] && ok "bash: claude:5f<TAB> (the part after the colon)" || bad "bash claude: '$r'"
r=$(b 'txc artifacts --profile work --home home ')
[ "$r" = "m2 m1" ] && ok "bash: --profile on the line" || bad "bash --profile: '$r'"
r=$(b 'txc list --home home --profile ')
[ "$r" = "default work" ] && ok "bash: --profile <TAB>" || bad "bash --profile: '$r'"
r=$(b 'txc list --home home --profile=w')
[ "$r" = "work" ] && ok "bash: --profile=w<TAB>" || bad "bash --profile=: '$r'"
r=$(b 'txc list --home home --source t')
[ "$r" = "telegram" ] && ok "bash: --source t<TAB>" || bad "bash --source: '$r'"
r=$(b 'txc convert x --to=')
[ "$r" = "$(txc completions bash | sed -n "s/.*--to) COMPREPLY=(\$(compgen -W '\([^']*\)'.*/\1/p")" ] && [ -n "$r" ] &&
	ok "bash: --to=<TAB>" || bad "bash --to=: '$r'"
case " $r " in *" markdown "*) ok "bash: --to= offers markdown" ;; *) bad "bash --to= lacks markdown: '$r'" ;; esac
r=$(b 'txc convert x --to=ma')
[ "$r" = "markdown" ] && ok "bash: --to=ma<TAB>" || bad "bash --to=ma: '$r'"
r=$(b 'txc convert --home home --li')
[ "$r" = "--lineage" ] && ok "bash: an option, not a session, after -" || bad "bash --li: '$r'"
# a store's words are data: compgen -W expanded them ('$(cmd)' as a source ran cmd), an unquoted
# $(...) globbed them ('*' as an id became the folder's files)
cat > evil.sql << 'SQL'
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, started_at REAL, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, timestamp REAL);
INSERT INTO sessions VALUES ('*', '$(touch${IFS}pwned-source)', 1789000000, NULL);
INSERT INTO sessions VALUES ('x$(touch${IFS}pwned-id)', 'c`touch pwned-tick`', 1789000001, NULL);
SQL
"$mkdb" evil.db evil.sql || exit 1
r=$(b 'txc list --db evil.db --source ')
[ "$r" = 'c`touch pwned-tick` $(touch${IFS}pwned-source)' ] && ok "bash: a store's sources offered as they are" ||
	bad "bash evil sources: '$r'"
r=$(b 'txc view --db evil.db ')
[ "$r" = 'x$(touch${IFS}pwned-id) *' ] && ok "bash: a store's ids offered as they are (no glob)" || bad "bash evil ids: '$r'"
ls pwned-* > /dev/null 2>&1 && bad "bash: completing ran a store's word: $(ls pwned-*)" || ok "bash: no store word ran"

# ---- zsh ----
if command -v zsh > /dev/null; then
	txc completions zsh > _txc
	zsh -n _txc && ok "zsh: syntax" || bad "zsh: syntax"
	# the helper, with _describe printing what it is given (the values escape a colon)
	z() { # PREFIX WORDS...
		zsh -f -c '_describe() { print -rl -- "${(@P)4}"; }; eval "$(sed "\$d" _txc)"; PREFIX=$1; shift; words=("$@"); _txc_store sessions' zsh "$@"
	}
	r=$(z 2026 txc convert --home home 2026 | tr '\n' '|')
	[ "$r" = "20260915_090000_d4e5f6:Tab and [31m escape|20260914_101502_a1b2c3:Fix the retry loop|" ] &&
		ok "zsh: ids described by their titles" || bad "zsh: '$r'"
	r=$(z claude:5f txc view claude:5f)
	case $r in 'claude\:5f3c2a10-0000-4000-8000-000000000001:'*) ok "zsh: claude: ids, the colon escaped" ;; *) bad "zsh claude: '$r'" ;; esac
	if command -v tmux > /dev/null; then
		# the real completion system: type, Tab, look at the screen
		mkdir -p zfunc && cp _txc zfunc/_txc
		cat > zshrc << EOF
PS1='%% '
fpath=($work/zfunc \$fpath)
autoload -Uz compinit && compinit -u -D
zstyle ':completion:*' format '<%d>'
zstyle ':completion:*' list-separator '--'
cd $work
EOF
		sock=$work/tmux.sock
		pane_has() { # TEXT: wait up to 40 s (compinit is slow on a loaded machine) for it on the screen
			i=0
			while [ $i -lt 80 ]; do
				tmux -S "$sock" capture-pane -p > zpane.txt 2> /dev/null
				grep -q -- "$1" zpane.txt && return 0
				sleep 0.5
				i=$((i + 1))
			done
			return 1
		}
		tmux -S "$sock" new-session -d -x 160 -y 30 "zsh -f -i"
		tmux -S "$sock" send-keys ". $work/zshrc; echo READY" Enter
		pane_has '^READY' || echo "# zsh did not start: $(cat zpane.txt)"
		tmux -S "$sock" send-keys 'txc view --home home 2026' Tab
		pane_has 'home 2026091' # the ids' common part first, then the list
		tmux -S "$sock" send-keys Tab
		pane_has 'Fix the retry loop'
		tmux -S "$sock" kill-server 2> /dev/null
		grep -q 'Fix the retry loop' zpane.txt && grep -q '20260915_090000_d4e5f6' zpane.txt &&
			ok "zsh (tmux): txc view 2026<TAB> lists ids and titles" || bad "zsh tmux: $(cat zpane.txt)"
	else
		skip "zsh (tmux): txc view 2026<TAB>" "tmux is not installed"
	fi
else
	skip "zsh completions" "zsh is not installed"
fi

# ---- fish ----
if command -v fish > /dev/null; then
	txc completions fish > c.fish
	f() { fish --no-config -c "source c.fish; complete -C '$1'"; }
	# fish collapses a description's runs of spaces
	r=$(f 'txc convert --home home 2026' | tr '\n' '|')
	[ "$r" = "20260915_090000_d4e5f6	Tab and [31m escape|20260914_101502_a1b2c3	Fix the retry loop|" ] &&
		ok "fish: txc convert 2026<TAB> with titles" || bad "fish: '$r'"
	f 'txc view claude:5f' | grep -q '^claude:5f3c2a10-0000-4000-8000-000000000001' && ok "fish: claude:5f<TAB>" ||
		bad "fish claude: $(f 'txc view claude:5f')"
	r=$(f 'txc list --home home --profile ' | cut -f1 | tr '\n' ' ')
	[ "$r" = "default work " ] && ok "fish: --profile <TAB>" || bad "fish --profile: '$r'"
	r=$(f 'txc list --home home --source ' | cut -f1 | sort | tr '\n' ' ')
	[ "$r" = "cli discord telegram " ] && ok "fish: --source <TAB>" || bad "fish --source: '$r'"
	f 'txc convert x --to=' | grep -q '^--to=markdown' && ok "fish: --to=<TAB>" || bad "fish --to=: $(f 'txc convert x --to=')"
else
	skip "fish completions" "fish is not installed"
fi

summary complete-tests
