/*
 * redact.h - find secrets in transcript text and replace them with a marker
 * (the engine in src/redact/, one rule family a file: src/redact/engine.h).
 *
 * A secret becomes "[REDACTED:<kind> …<hint>]": kind names what it was
 * (anthropic-key, aws-secret-key, password, ...; txc_redact_kind_names()),
 * hint is the first 4 hex digits of the SHA-256 of the secret's bytes, never
 * its characters, so one secret gives the same marker everywhere and the
 * marker does not give the secret back.
 *
 * What is never changed: JSON structure (a JSON text inside a string is
 * redacted inside its decoded strings and re-encoded, every other byte kept),
 * object keys, numbers, ids, tool names, images, reasoning signatures and
 * encrypted reasoning, base64 runs.  Valid UTF-8 stays valid UTF-8.
 *
 * Ownership: a redactor owns only its counts; redacted strings and JSON nodes
 * are allocated in the arena the caller passes (the transcript's, for
 * txc_redact_transcript).  Unchanged values are returned as they are.
 *
 * Threads: the engine's lookup tables (~75 KiB, derived from its rule table) are built once,
 * behind pthread_once, by the first txc_redactor_new() or txc_redact_text(), and only read
 * after; a redactor itself is one thread's (its counts and key cache change as it scans).
 */
#ifndef TXC_REDACT_H
#define TXC_REDACT_H

#include "txc/json.h"
#include "txc/model.h"

struct txc_hermes_native;
struct txc_redactor;

/* scan_only: txc_redact_str, _json, _transcript and _native count what they would redact (for a
 * warning) and change nothing; txc_redact_text writes its output either way */
struct txc_redactor *txc_redactor_new(bool scan_only);
void txc_redactor_free(struct txc_redactor *r);
/* on (the default): texts that surely hold no secret skip the pass; off: every text is scanned
 * byte by byte (the finds are the same either way: tests compare the two) */
void txc_redactor_set_prefilter(struct txc_redactor *r, bool on);

/* Append p to out with its secrets replaced; returns how many were found. */
size_t txc_redact_text(struct txc_redactor *r, const char *p, size_t len, struct txc_buf *out);
/* s redacted (a JSON object or array text is redacted inside its strings); s itself when unchanged. */
struct txc_str txc_redact_str(struct txc_redactor *r, struct txc_arena *a, struct txc_str s);
/* v with every string value redacted (keys as they are); v itself when unchanged. */
const struct txc_json *txc_redact_json(struct txc_redactor *r, struct txc_arena *a, const struct txc_json *v);
/* Every text the transcript shows (meta, messages, tool inputs and outputs, t->native), in t->arena. */
void txc_redact_transcript(struct txc_redactor *r, struct txc_transcript *t);
/* A copy of src with its session row and rows redacted (in a), for a writer of the native rows. */
void txc_redact_native(struct txc_redactor *r, struct txc_arena *a, struct txc_hermes_native *dst,
		       const struct txc_hermes_native *src);

/* Secrets found so far, and their kinds ("anthropic-key, password") in the order first seen. */
size_t txc_redact_count(const struct txc_redactor *r);
void txc_redact_kinds(const struct txc_redactor *r, struct txc_buf *out);
/* Every kind name, for documentation and tests. */
const char *const *txc_redact_kind_names(size_t *n);

#endif
