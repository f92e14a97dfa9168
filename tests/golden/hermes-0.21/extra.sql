-- tests/golden/hermes-0.21/extra.sql, applied after timings.sql: what v0.20.0's oracle cannot
-- check byte for byte.  Current Hermes writes a display_identity BLOB on every row (v0.20.0's
-- export crashes on them); a column unknown to 0.21 holding a BLOB, which 0.21 drops, and text,
-- which it keeps; infinite timestamps (0.21 crashes on them, txc counts them as missing).
ALTER TABLE messages ADD COLUMN extra BLOB;
INSERT INTO sessions (id, source, model, started_at, message_count, title) VALUES
 ('inf', 'cli', 'm', 6000.0, 4, 'infinite timestamps');
INSERT INTO messages (session_id, role, content, timestamp) VALUES
 ('inf', 'user', 'plus infinity', 1e999),
 ('inf', 'assistant', 'first finite', 6010.0),
 ('inf', 'user', 'minus infinity', -1e999),
 ('inf', 'assistant', 'second finite', 6011.5);
UPDATE messages SET display_identity = CAST(printf('id-%d', id) AS BLOB);
UPDATE messages SET extra = X'00FF' WHERE id % 2 = 0;
UPDATE messages SET extra = 'text stays' WHERE id = 1;
