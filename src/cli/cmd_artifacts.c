/*
 * cmd_artifacts.c - `txc artifacts SESSION`: what a session produced or
 * referred to.  --check looks at local paths with realpath() and stat()
 * only: a file's contents are never read, and Hermes's request dumps are
 * never listed (the model drops them).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "txc/artifacts.h"

struct check {
	bool local, exists;
	bool foreign;     /* a Windows or UNC path: it cannot be looked at on this system */
	const char *type; /* file, directory, other */
	long long size;
	char resolved[PATH_MAX];
};

/* C:\x, C:/x, \\server\share, //server/share: paths of another system */
static bool foreign_path(const char *v)
{
	if (((v[0] >= 'A' && v[0] <= 'Z') || (v[0] >= 'a' && v[0] <= 'z')) && v[1] == ':' &&
	    (v[2] == '\\' || v[2] == '/'))
		return true;
	return (v[0] == '\\' && v[1] == '\\') || (v[0] == '/' && v[1] == '/' && v[2] != '/' && v[2] != '\0');
}

static int hexval(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

/* file:///abs, file://localhost/abs, file:/abs, file:rel: the path, %XX decoded; false for another host */
static bool file_uri_path(const char *v, struct txc_buf *out)
{
	const char *p = v + 5;
	if (strncmp(p, "//", 2) == 0) {
		p += 2;
		if (strncmp(p, "localhost/", 10) == 0)
			p += 9;
		else if (*p != '/')
			return false; /* file://host/...: not this machine */
	}
	for (; *p; p++) {
		int hi, lo;
		if (*p == '%' && (hi = hexval(p[1])) >= 0 && (lo = hexval(p[2])) >= 0 && (hi || lo)) {
			txc_buf_addch(out, (char)(hi * 16 + lo));
			p += 2;
		} else {
			txc_buf_addch(out, *p);
		}
	}
	return true;
}

/*
 * Local paths: file:, ~/, / and relative ones.  A relative path means the
 * session's working directory, never txc's own: without an absolute cwd it
 * cannot be looked at.  Windows and UNC paths are reported as not checkable.
 */
static void check_path(const struct txc_artifact *x, struct txc_str cwd, struct check *c)
{
	memset(c, 0, sizeof(*c));
	const char *v = x->value.ptr;
	size_t len = x->value.len;
	if (x->kind == TXC_ARTIFACT_LINK || strncmp(v, "data:", 5) == 0 || strlen(v) != len)
		return;
	struct txc_buf p = TXC_BUF_INIT;
	bool ok = true;
	if (strncmp(v, "file:", 5) == 0)
		ok = file_uri_path(v, &p);
	else
		txc_buf_addstr(&p, v);
	const char *path = p.buf;
	if (!ok || foreign_path(path)) {
		c->foreign = true;
		txc_buf_release(&p);
		return;
	}
	struct txc_buf full = TXC_BUF_INIT;
	if (strncmp(path, "~/", 2) == 0 && getenv("HOME") != NULL && getenv("HOME")[0] == '/')
		txc_buf_addf(&full, "%s/%s", getenv("HOME"), path + 2);
	else if (path[0] == '/')
		txc_buf_addstr(&full, path);
	else if (path[0] != '~' && path[0] != '\0' && cwd.ptr != NULL && strlen(cwd.ptr) == cwd.len &&
		 cwd.ptr[0] == '/')
		txc_buf_addf(&full, "%s/%s", cwd.ptr, path);
	txc_buf_release(&p);
	if (full.len == 0) {
		txc_buf_release(&full);
		return; /* relative without a known cwd: nothing to look at here */
	}
	c->local = true;
	struct stat sb;
	if (realpath(full.buf, c->resolved) != NULL && stat(c->resolved, &sb) == 0) {
		c->exists = true;
		c->type = "other";
		if (S_ISREG(sb.st_mode))
			c->type = "file";
		else if (S_ISDIR(sb.st_mode))
			c->type = "directory";
		c->size = (long long)sb.st_size;
	} else {
		snprintf(c->resolved, sizeof(c->resolved), "%s", full.buf);
	}
	txc_buf_release(&full);
}

static void json_out(struct txc_buf *b, const struct txc_transcript *t, const struct txc_artifact *x, size_t n,
		     bool check)
{
	txc_buf_addch(b, '[');
	for (size_t i = 0; i < n; i++) {
		const struct txc_message *m = &t->messages[x[i].message];
		txc_buf_addstr(b, i ? ",\n{" : "\n{");
		txc_buf_addf(b, "\"kind\":\"%s\",\"value\":", txc_artifact_kind_name(x[i].kind));
		txc_json_emit_str(b, x[i].value.ptr, x[i].value.len);
		/* numbered as the table, `search` and ID#N: from 1; a row without a number (inactive) has none */
		if (m->number > 0)
			txc_buf_addf(b, ",\"message\":%lld", (long long)m->number);
		else
			txc_buf_addstr(b, ",\"message\":null");
		txc_buf_addf(b, ",\"row_id\":%lld,\"role\":\"%s\",\"tool\":", (long long)m->row_id,
			     m->role == TXC_ROLE_ASSISTANT ? "assistant" : "tool");
		if (x[i].tool.ptr)
			txc_json_emit_str(b, x[i].tool.ptr, x[i].tool.len);
		else
			txc_buf_addstr(b, "null");
		txc_buf_addf(b, ",\"rule\":\"%s\"", x[i].rule);
		if (check) {
			struct check c;
			check_path(&x[i], t->meta.cwd, &c);
			if (c.foreign) {
				txc_buf_addstr(b, ",\"exists\":null,\"checkable\":false");
			} else if (!c.local) {
				txc_buf_addstr(b, ",\"exists\":null");
			} else {
				txc_buf_addf(b, ",\"exists\":%s,\"path\":", c.exists ? "true" : "false");
				txc_json_emit_str(b, c.resolved, strlen(c.resolved));
				if (c.exists)
					txc_buf_addf(b, ",\"type\":\"%s\",\"size\":%lld", c.type, c.size);
			}
		}
		txc_buf_addch(b, '}');
	}
	txc_buf_addstr(b, n ? "\n]\n" : "]\n");
}

/* magenta images, blue links, cyan files */
static const char *kind_sgr(enum txc_artifact_kind k)
{
	if (k == TXC_ARTIFACT_IMAGE)
		return "35";
	if (k == TXC_ARTIFACT_LINK)
		return "34";
	return "36";
}

static void table_out(struct txc_buf *b, const struct txc_transcript *t, const struct txc_artifact *x, size_t n,
		      bool check, size_t *missing)
{
	for (size_t i = 0; i < n; i++) {
		const char *kind = txc_artifact_kind_name(x[i].kind);
		cli_paint(b, kind_sgr(x[i].kind), kind, strlen(kind));
		int64_t num = t->messages[x[i].message].number;
		if (num > 0)
			txc_buf_addf(b, "%*s#%-5lld ", (int)(6 - strlen(kind)), "", (long long)num);
		else
			txc_buf_addf(b, "%*s#-     ", (int)(6 - strlen(kind)), "");
		if (x[i].tool.ptr) {
			struct txc_buf tool = TXC_BUF_INIT;
			cli_safe_text(&tool, x[i].tool.ptr, x[i].tool.len, true);
			txc_buf_addf(b, "%-14s ", tool.buf);
			txc_buf_release(&tool);
		} else {
			txc_buf_addf(b, "%-14s ", "assistant");
		}
		cli_safe_text(b, x[i].value.ptr, x[i].value.len, true);
		if (check) {
			struct check c;
			check_path(&x[i], t->meta.cwd, &c);
			if (c.local && c.exists) {
				txc_buf_addstr(b, "  ");
				cli_paint(b, "32", "ok", 2);
				txc_buf_addf(b, " (%s, %lld bytes)", c.type, c.size);
			} else if (c.local) {
				txc_buf_addstr(b, "  ");
				cli_paint(b, "31", "missing", 7);
				(*missing)++;
			} else if (c.foreign) {
				txc_buf_addstr(b, "  not checkable on this system");
			}
		}
		txc_buf_addch(b, '\n');
	}
}

static int run(int argc, char **argv)
{
	struct cli_args a;
	int rc;
	if (!cli_begin(&cmd_artifacts, argc, argv, &a, &rc))
		return rc;
	if (a.n_pos != 1)
		return cli_usage(cmd_artifacts.name, a.n_pos ? "give exactly one SESSION" : "missing SESSION");
	struct txc_diag d = {0};
	struct txc_transcript *t = NULL;
	/* --redact: the values are found in, and checked as, the redacted text */
	rc = cli_load_session(&a, TXC_LOAD_MODEL_ONLY, &t, NULL, &d);
	if (rc)
		return cli_fail(&d);
	struct txc_arena *ar = txc_arena_new(0);
	struct txc_artifact *x;
	size_t n = txc_artifacts_find(t, ar, &x), missing = 0;
	struct txc_buf b = TXC_BUF_INIT;
	if (a.json)
		json_out(&b, t, x, n, a.check);
	else
		table_out(&b, t, x, n, a.check, &missing);
	if (a.json) { /* on a terminal, through the same filter as all transcript text (the table is safe already) */
		struct txc_out out;
		struct cli_tty tty;
		cli_out_stdout(&out, &tty);
		txc_buf_add(&out.buf, b.buf, b.len);
		if (cli_out_finish(&out) != 0)
			cli_stdout_failed(out.err);
		txc_out_release(&out);
	} else {
		cli_stdout_write(b.buf, b.len);
	}
	txc_buf_release(&b);
	if (!a.json && n == 0)
		cli_warn("no artifacts found in this session");
	txc_arena_free(ar);
	txc_transcript_free(t);
	return 0;
}

/* the options `txc artifacts` takes (help lists them in the catalogue's order) */
static const struct cli_opt *const options[] = {
	CLI_STORE_OPTIONS, CLI_COMMON_OPTIONS, &cli_opt_json, &cli_opt_check, &cli_opt_redact, NULL,
};

const struct cli_cmd_info cmd_artifacts = {
	.name = "artifacts",
	.usage = "SESSION [--json] [--check] [--redact]",
	.summary = "files a session produced or referred to",
	.about = "List the files, images and links a session produced or referred to, found in its\n"
		 "assistant and tool messages (MEDIA: tags, screenshot paths, Markdown images and\n"
		 "links, tool-result keys such as saved_to).  Paths are shown, never opened.\n",
	.examples = "  txc artifacts 20260914              # files, images and links of a session\n"
		    "  txc artifacts 7f3e --check          # and whether each local path exists\n"
		    "  txc artifacts 7f3e --json --redact  # as JSON, secrets replaced\n",
	.run = run,
	.opts = options,
	.flags = CLI_CMD_SESSION_ARG,
};
