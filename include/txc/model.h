/*
 * model.h - the in-memory transcript every reader builds and every writer reads.
 *
 * A transcript is Meta + ordered Messages of typed Blocks, in the Claude
 * convention: tool results sit on user messages, tool names are Claude's
 * (read_file -> Read, terminal -> Bash, ...).  A source may attach its own
 * rows (t->native, model_hermes.h) so that a writer for that format (Hermes
 * export) loses nothing; every other writer reads the model alone.
 *
 * Ownership: every byte reachable from a transcript lives in t->arena and is
 * freed by txc_transcript_free() alone.  Writers never free model memory.
 */
#ifndef TXC_MODEL_H
#define TXC_MODEL_H

#include "txc/json.h"
#include "txc/util.h"

enum txc_role { TXC_ROLE_USER, TXC_ROLE_ASSISTANT };

/* Who a user-role message is from when it is not the user: instructions to the model (Codex's
 * developer and system messages).  The role stays USER so that every consumer that only knows two
 * roles still sends it to the model; writers that can say more say it (docs/FORMATS.md). */
enum txc_instructions { TXC_INSTR_NONE, TXC_INSTR_DEVELOPER, TXC_INSTR_SYSTEM };

enum txc_block_kind {
	TXC_BLOCK_TEXT,
	TXC_BLOCK_THINKING,
	TXC_BLOCK_TOOL_USE,
	TXC_BLOCK_TOOL_RESULT,
	TXC_BLOCK_IMAGE,
};

enum txc_tool {
	TXC_TOOL_RAW,
	TXC_TOOL_READ,
	TXC_TOOL_WRITE,
	TXC_TOOL_EDIT,
	TXC_TOOL_MULTIEDIT,
	TXC_TOOL_BASH,
	TXC_TOOL_COMMAND,
};

enum txc_stop {
	TXC_STOP_NONE,
	TXC_STOP_END_TURN,
	TXC_STOP_TOOL_USE,
	TXC_STOP_MAX_TOKENS,
	TXC_STOP_STOP_SEQUENCE,
	TXC_STOP_ABORTED,
	TXC_STOP_ERROR,
	TXC_STOP_OTHER, /* stop_other holds the text */
};

struct txc_block {
	enum txc_block_kind kind;
	struct txc_str text;           /* TEXT, THINKING (may be empty) */
	bool replayed;                 /* TEXT: not the text shown but the one replayed to the provider where
					  it differs (Hermes's api_content, docs/FORMATS.md): documents for
					  people show it labelled, the Claude writer leaves it out */
	struct txc_str signature;      /* THINKING: provider signature, if any */
	struct txc_str encrypted;      /* THINKING: opaque provider reasoning, if any; redacted: its data */
	bool redacted;                 /* THINKING: Anthropic's redacted_thinking (no text, data in encrypted) */
	struct txc_str id;             /* TOOL_USE: call id; TOOL_RESULT: the call it answers */
	struct txc_str name;           /* TOOL_USE: canonical name; TOOL_RESULT: tool name if known */
	struct txc_str source_name;    /* TOOL_USE: the name as the source wrote it */
	enum txc_tool tool;            /* TOOL_USE: typed variant, or RAW */
	const struct txc_json *input;  /* TOOL_USE: canonical input (any JSON) */
	const struct txc_json *output; /* TOOL_RESULT: JSON output already a tree, or NULL */
	struct txc_str output_text;    /* TOOL_RESULT: the output as text (when output is NULL) */
	bool output_json;              /* TOOL_RESULT: output_text is a JSON object or array:
					  txc_block_output() parses it on demand */
	bool is_error;                 /* TOOL_RESULT */
	bool denied;                   /* TOOL_RESULT: refused by the user or a policy */
	struct txc_str media_type;     /* IMAGE */
	struct txc_str data;           /* IMAGE: base64 */
};

struct txc_message {
	enum txc_role role;
	struct txc_block *blocks;
	size_t n_blocks;
	double time;          /* seconds since the epoch (UTC) */
	struct txc_str model; /* assistant: the model that wrote it */
	enum txc_stop stop;
	struct txc_str stop_other;
	int64_t row_id;                     /* source row id (Hermes messages.id), 0 if none */
	bool compacted;                     /* history archived by compaction (not live) */
	int64_t number;                     /* its message number, ID#N (search.h): what `txc search` prints and the
					       Markdown headings show; 0 for a row that has none */
	bool compact_summary;               /* the summary that compaction put in place of archived history */
	enum txc_instructions instructions; /* USER: instructions to the model, not what the user said */
};

/*
 * A session id of any type keeps its own identity end to end: its kind and
 * its identity text (a TEXT id's bytes, NUL included; a number's lexeme; a
 * BLOB as x'hex'; other JSON as its text).  An id that cannot name a session
 * (NULL, missing, "") gets a stand-in from the session's place in its source
 * ("no-id~17"), as does a repeated id after its first session ("abc~2").
 * (kind, text) is unique within a source; output derived from an id
 * (file names, Claude session ids) keys on both, so 1 and "1" differ.
 */
enum txc_id_kind { TXC_ID_TEXT, TXC_ID_INT, TXC_ID_REAL, TXC_ID_BLOB, TXC_ID_JSON, TXC_ID_NONE, TXC_ID_DUP };

/* Names one session of a store: what listing and resolving give, what loading takes. */
struct txc_sid {
	enum txc_id_kind kind;
	struct txc_str text; /* identity text (see above) */
	bool placed;         /* pos is known: */
	int64_t pos;         /* its place in the source (SQLite rowid; in a JSON source's list, counting from 1) */
};

/* The kind and identity text of an id value (v may be NULL); a stand-in is left to the reader (text empty). */
void txc_model_id(struct txc_arena *a, const struct txc_json *v, enum txc_id_kind *kind, struct txc_str *text);
/* "text", "integer", "real", "blob", "json", "none", "duplicate" */
const char *txc_model_id_kind_name(enum txc_id_kind k);
/* What output derived from an id hashes: the text for TEXT ids; "<kind name>:<text>" for others. */
void txc_model_id_key(struct txc_buf *out, enum txc_id_kind kind, struct txc_str text);

struct txc_meta {
	enum txc_id_kind id_kind; /* id: identity text, never NULL once a reader has loaded it */
	struct txc_str id, title, cwd, git_branch, model, source, end_reason, billing_provider;
	double started_at; /* seconds; the epoch when unknown */
	double ended_at;   /* valid when has_ended */
	bool has_ended;
	bool archived;
	int64_t message_count, tool_call_count;
	bool has_usage; /* token columns present and non-zero */
	int64_t input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens;
	bool has_cost;
	double cost_usd; /* actual_cost_usd when recorded, else estimated */
	bool cost_is_actual;
	int64_t range_first, range_last; /* a range of the session (txc_model_slice): the message
					    numbers it kept; both 0 for the whole session */
};

struct txc_hermes_native;
struct txc_transcript;

/* One session of a compression chain joined into one conversation (txc_transcript_join). */
struct txc_segment {
	struct txc_str id, title, end_reason; /* the segment's session; end_reason: how it ended */
	double started, ended;                /* ended valid when has_ended */
	bool has_ended;
	size_t first;                   /* its first message in the joined t->messages */
	const struct txc_transcript *t; /* the segment's own transcript (its native rows) */
};

/* A delegate child session (subagent) placed where its parent called it (txc_transcript_adopt). */
struct txc_child {
	struct txc_str id, title;
	size_t message, block;          /* the delegating tool call; message == n_messages: after the last */
	const struct txc_transcript *t; /* its transcript (--children), or NULL: only named */
};

struct txc_transcript {
	struct txc_arena *arena;
	struct txc_meta meta;
	struct txc_message *messages;
	size_t n_messages;
	/* the source's own rows, for a writer of the source's format: set by the Hermes
	 * readers (model_hermes.h), NULL for every other harness; in arena */
	struct txc_hermes_native *native;
	/* a compression chain (--lineage): each session's place, root first; 0 for one session */
	struct txc_segment *segments;
	size_t n_segments;
	/* delegate children, in the order of the calls that placed them */
	struct txc_child *children;
	size_t n_children;
	/* transcripts this one borrows messages from: freed with it */
	struct txc_transcript **parts;
	size_t n_parts;
};

struct txc_transcript *txc_transcript_new(void);
void txc_transcript_free(struct txc_transcript *t);

/* A block built in a scratch arena made to last: every string and JSON tree b points at is copied
 * into a, and b points at the copies (strings with a NULL ptr stay NULL). */
void txc_block_copy(struct txc_arena *a, struct txc_block *b);

/* A tool result's output as JSON: the tree, parsed into scratch when kept as text; NULL for text. */
const struct txc_json *txc_block_output(const struct txc_block *b, struct txc_arena *scratch);

/* The typed/raw decision for a tool call named name (canonical, NUL-terminated): sets b->name,
 * b->tool and b->input (the canonical input of a typed tool, else input itself; built in a). */
void txc_model_tool_set(struct txc_arena *a, struct txc_block *b, struct txc_str name, const struct txc_json *input);

enum txc_stop txc_model_stop_from_text(const char *s, size_t len);
const char *txc_model_stop_name(enum txc_stop s); /* Claude spelling, NULL for NONE */

size_t txc_model_count_tool_uses(const struct txc_transcript *t);
/* A model tool name (Claude's) as Hermes names it (Read -> read_file, Write -> write_file, Edit -> patch,
 * Bash -> terminal), or NULL when Hermes keeps the name: the Hermes writer's rows (hermes_rows.c), the
 * Claude reader, and --tool's match of either name (store.c). */
const char *txc_model_hermes_name(struct txc_str name);

#endif
