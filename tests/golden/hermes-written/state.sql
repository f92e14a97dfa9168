PRAGMA foreign_keys=OFF;
BEGIN;
CREATE TABLE schema_version (
    version INTEGER NOT NULL
);
INSERT INTO "schema_version" VALUES(25);
CREATE TABLE system_prompts (
    hash TEXT PRIMARY KEY,
    prompt TEXT NOT NULL
);
INSERT INTO "system_prompts" VALUES('79679b939e5cf9a924701a861157f47233142317f6a85e96742390fa77ebaf06','You are Hermes. ✓ système');
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    user_id TEXT,
    session_key TEXT,
    chat_id TEXT,
    chat_type TEXT,
    thread_id TEXT,
    display_name TEXT,
    origin_json TEXT,
    expiry_finalized INTEGER DEFAULT 0,
    model TEXT,
    model_config TEXT,
    system_prompt TEXT,
    system_prompt_hash TEXT,
    parent_session_id TEXT,
    started_at REAL NOT NULL,
    ended_at REAL,
    end_reason TEXT,
    message_count INTEGER DEFAULT 0,
    tool_call_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0,
    output_tokens INTEGER DEFAULT 0,
    cache_read_tokens INTEGER DEFAULT 0,
    cache_write_tokens INTEGER DEFAULT 0,
    reasoning_tokens INTEGER DEFAULT 0,
    cwd TEXT,
    git_branch TEXT,
    git_repo_root TEXT,
    billing_provider TEXT,
    billing_base_url TEXT,
    billing_mode TEXT,
    estimated_cost_usd REAL,
    actual_cost_usd REAL,
    cost_status TEXT,
    cost_source TEXT,
    pricing_version TEXT,
    title TEXT,
    last_activity_at REAL,
    last_activity_description TEXT,
    last_activity_provenance TEXT,
    api_call_count INTEGER DEFAULT 0,
    handoff_state TEXT,
    handoff_platform TEXT,
    handoff_error TEXT,
    compression_failure_cooldown_until REAL,
    compression_failure_error TEXT,
    compression_fallback_streak INTEGER NOT NULL DEFAULT 0,
    compression_ineffective_count INTEGER NOT NULL DEFAULT 0,
    profile_name TEXT,
    rewind_count INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id),
    FOREIGN KEY (system_prompt_hash) REFERENCES system_prompts(hash)
);
INSERT INTO "sessions" VALUES('20260802_093000_c0ffee','cli',NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,'anthropic/claude-opus-4','{"provider": "anthropic", "temperature": 0.2}',NULL,'79679b939e5cf9a924701a861157f47233142317f6a85e96742390fa77ebaf06',NULL,1796026197.13152,1796026197.14848,'cli_close',7,1,2000,150,0,0,0,'/srv/app',NULL,NULL,'anthropic',NULL,NULL,0.004,NULL,NULL,NULL,NULL,'Lister les fichiers',NULL,NULL,NULL,2,NULL,NULL,NULL,NULL,NULL,0,0,'default',1,0,0);
INSERT INTO "sessions" VALUES('deadbeef','telegram','42','agent:main:telegram:dm:42','42','dm',NULL,NULL,NULL,0,'gpt-5',NULL,NULL,NULL,NULL,1796026197.149417,NULL,NULL,2,0,0,0,0,0,0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL,0,0,NULL,0,0,0);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content TEXT,
    tool_call_id TEXT,
    tool_calls TEXT,
    tool_name TEXT,
    effect_disposition TEXT,
    timestamp REAL NOT NULL,
    token_count INTEGER,
    finish_reason TEXT,
    reasoning TEXT,
    reasoning_content TEXT,
    reasoning_details TEXT,
    codex_reasoning_items TEXT,
    codex_message_items TEXT,
    platform_message_id TEXT,
    observed INTEGER DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1,
    compacted INTEGER NOT NULL DEFAULT 0,
    api_content TEXT,
    display_kind TEXT,
    display_metadata TEXT
);
INSERT INTO "messages" VALUES(1,'20260802_093000_c0ffee','user','Liste les fichiers — s''il te plaît 🙏',NULL,NULL,NULL,NULL,1785663000.5,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,1,0,NULL,NULL,NULL);
INSERT INTO "messages" VALUES(2,'20260802_093000_c0ffee','assistant','Je regarde.',NULL,'[{"id": "call_a", "type": "function", "function": {"name": "terminal", "arguments": "{\"command\": \"ls\"}"}}]',NULL,NULL,1785663001.75,NULL,'tool_calls','Need ls.',NULL,NULL,NULL,NULL,NULL,0,1,0,NULL,NULL,NULL);
INSERT INTO "messages" VALUES(3,'20260802_093000_c0ffee','tool','{"output": "a.txt\nb.txt", "exit_code": 0, "error": null}','call_a',NULL,'terminal',NULL,1785663002.5,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,1,0,NULL,NULL,NULL);
INSERT INTO "messages" VALUES(4,'20260802_093000_c0ffee','user',CAST(X'006a736f6e3a5b7b2274797065223a202274657874222c202274657874223a2022457420636574746520696d616765203f227d2c207b2274797065223a2022696d6167655f75726c222c2022696d6167655f75726c223a207b2275726c223a2022646174613a696d6167652f706e673b6261736536342c41414141227d7d5d' AS TEXT),NULL,NULL,NULL,NULL,1785663003.5,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,1,0,NULL,NULL,NULL);
INSERT INTO "messages" VALUES(5,'20260802_093000_c0ffee','assistant','Un diagramme.',NULL,NULL,NULL,NULL,1785663005.0,NULL,'stop',NULL,NULL,NULL,NULL,NULL,NULL,0,1,0,NULL,NULL,'{"reactions": ["\u2705"]}');
INSERT INTO "messages" VALUES(6,'20260802_093000_c0ffee','user','oops, rewind me',NULL,NULL,NULL,NULL,1785663005.5,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO "messages" VALUES(7,'20260802_093000_c0ffee','assistant','(rewound reply)',NULL,NULL,NULL,NULL,1785663006.5,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,0,0,NULL,NULL,NULL);
INSERT INTO "messages" VALUES(8,'deadbeef','user','hi',NULL,NULL,NULL,NULL,1785663100.5,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'777',0,1,0,NULL,NULL,NULL);
INSERT INTO "messages" VALUES(9,'deadbeef','assistant','hello!',NULL,NULL,NULL,NULL,1785663102.25,NULL,'stop',NULL,NULL,NULL,NULL,NULL,NULL,0,1,0,NULL,NULL,NULL);
CREATE TABLE session_model_usage (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    billing_provider TEXT NOT NULL DEFAULT '',
    billing_base_url TEXT NOT NULL DEFAULT '',
    billing_mode TEXT NOT NULL DEFAULT '',
    task TEXT NOT NULL DEFAULT '',
    api_call_count INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cache_read_tokens INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    estimated_cost_usd REAL NOT NULL DEFAULT 0,
    actual_cost_usd REAL NOT NULL DEFAULT 0,
    cost_status TEXT,
    cost_source TEXT,
    first_seen REAL,
    last_seen REAL,
    PRIMARY KEY (session_id, model, billing_provider, billing_base_url, billing_mode, task)
);
INSERT INTO "session_model_usage" VALUES('20260802_093000_c0ffee','anthropic/claude-opus-4','anthropic','','','',2,2000,150,0,0,0,0.004,0.0,NULL,NULL,1796026197.145881,1796026197.145881);
CREATE TABLE state_meta (
    key TEXT PRIMARY KEY,
    value TEXT
);
CREATE TABLE gateway_routing (
    scope TEXT NOT NULL DEFAULT '',
    session_key TEXT NOT NULL,
    entry_json TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (scope, session_key)
);
CREATE TABLE compression_locks (
    session_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    acquired_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
CREATE TABLE async_delegations (
    delegation_id TEXT PRIMARY KEY,
    origin_session TEXT NOT NULL,
    origin_ui_session_id TEXT NOT NULL DEFAULT '',
    parent_session_id TEXT,
    state TEXT NOT NULL,
    dispatched_at REAL NOT NULL,
    completed_at REAL,
    updated_at REAL NOT NULL,
    event_json TEXT,
    result_json TEXT,
    delivery_state TEXT NOT NULL DEFAULT 'pending',
    delivery_attempts INTEGER NOT NULL DEFAULT 0,
    delivered_at REAL,
    owner_pid INTEGER,
    owner_started_at INTEGER,
    task_json TEXT,
    delivery_claim TEXT,
    delivery_claimed_at REAL
);
CREATE INDEX idx_sessions_source ON sessions(source);
CREATE INDEX idx_sessions_source_id ON sessions(source, id);
CREATE INDEX idx_sessions_parent ON sessions(parent_session_id);
CREATE INDEX idx_sessions_started ON sessions(started_at DESC);
CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
CREATE INDEX idx_messages_session_id ON messages(session_id, id);
CREATE INDEX idx_messages_assistant_calls_by_session
    ON messages(session_id)
    WHERE role = 'assistant' AND tool_calls IS NOT NULL;
CREATE INDEX idx_compression_locks_expires ON compression_locks(expires_at);
CREATE INDEX idx_session_model_usage_session ON session_model_usage(session_id);
CREATE INDEX idx_session_model_usage_model ON session_model_usage(model);
CREATE INDEX idx_async_delegations_delivery
    ON async_delegations(delivery_state, completed_at);
CREATE INDEX idx_messages_platform_msg_id ON messages(session_id, platform_message_id) WHERE platform_message_id IS NOT NULL;
CREATE INDEX idx_messages_session_active
    ON messages(session_id, active, timestamp);
CREATE INDEX idx_messages_active_null
    ON messages(active) WHERE active IS NULL;
CREATE INDEX idx_sessions_session_key
    ON sessions(session_key, started_at DESC);
CREATE INDEX idx_sessions_gateway_peer
    ON sessions(source, user_id, chat_id, chat_type, thread_id, started_at DESC);
CREATE INDEX idx_sessions_handoff_state
    ON sessions(handoff_state, started_at);
CREATE INDEX idx_sessions_system_prompt_hash
    ON sessions(system_prompt_hash);
CREATE UNIQUE INDEX idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL;
COMMIT;
