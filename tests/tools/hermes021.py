#!/usr/bin/env python3
"""hermes021.py DB EXPORT.jsonl: Hermes 0.21's export, made from v0.20.0's.

An independent check of txc's --hermes-format 0.21: it reads v0.20.0's export of
sessions of DB (the oracle's bytes, or txc's where they are the same) and prints
what Hermes 0.21 prints for them, as ../shared/reference/hermes-current.md 3.1-3.3
gives its code, in Python itself (float(), round(), datetime.isoformat(), json.dumps):

- messages lose display_identity / display_order; _compressed_summary is dropped,
  and appended last as true when it was set; a BLOB ({"$blob_hex": ...}, txc's
  form) in a column 0.21 does not know is dropped;
- _reset_from / _branched_from of model_config follow the session columns (and
  last_active, which a bulk line has, computed again with 0.21's window);
- "timings" (_build_export_timings) is the last key.

Where 0.21 raises, it follows what txc documents (docs/FORMATS.md): a NaN or
infinite timestamp counts as missing, an ISO time outside datetime's years is null.
"""
import json
import math
import sqlite3
import sys
from collections import Counter
from datetime import datetime, timezone

EPOCH_MIN, EPOCH_MAX = 0, 4102444800  # txc's choice: upstream's values were not read
KNOWN = set("""id session_id role content tool_call_id tool_calls tool_name effect_disposition timestamp
token_count finish_reason reasoning reasoning_content reasoning_details codex_reasoning_items
codex_message_items platform_message_id observed active compacted api_content display_kind
display_metadata message_uid absorbed_message_uids tool_call_uids tool_call_uid""".split())


def parse_const(c):
    return {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}[c]


def iso(ts):
    try:
        return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat()
    except (OverflowError, ValueError, OSError):
        return None


def ms(x):
    return max(0, int(round(x)))


def timings(messages):
    stamped = []
    for m in messages:
        try:
            ts = float(m.get("timestamp"))
        except (TypeError, ValueError):
            continue
        if math.isfinite(ts):
            stamped.append((m, ts))
    roles = Counter(str(m.get("role") or "unknown") for m in messages)
    calls = 0
    for m in messages:
        tc = m.get("tool_calls")
        calls += len(tc) if isinstance(tc, list) else 1 if tc else 0
    intervals, largest = [], None
    for (a, ta), (b, tb) in zip(stamped, stamped[1:]):
        gap = ms((tb - ta) * 1000)
        largest = gap if largest is None else max(largest, gap)
        intervals.append({"from_message_id": a.get("id"), "to_message_id": b.get("id"),
                          "from_role": a.get("role"), "to_role": b.get("role"), "gap_ms": gap})
    n = len(stamped)
    return {
        "source": "message_timestamps", "available": n > 0, "complete": False,
        "unavailable_reason": None if n else "no_timestamped_messages",
        "message_timestamps": {"available": n, "missing": len(messages) - n},
        "first_message_at": iso(stamped[0][1]) if n else None,
        "last_message_at": iso(stamped[-1][1]) if n else None,
        "wall_clock_ms": ms((stamped[-1][1] - stamped[0][1]) * 1000) if n else None,
        "largest_gap_ms": largest if n > 1 else None,
        "role_counts": dict(roles), "tool_result_count": roles.get("tool", 0),
        "tool_calls_emitted": calls, "intervals": intervals,
    }


def row(m):
    out = {}
    for k, v in m.items():
        if k in ("display_identity", "display_order", "_compressed_summary"):
            continue
        if isinstance(v, dict) and list(v) == ["$blob_hex"] and k not in KNOWN:
            continue
        out[k] = v
    if m.get("_compressed_summary"):
        out["_compressed_summary"] = True
    return out


def last_active(db, sid):
    (la, mx, st) = db.execute(
        "SELECT last_activity_at, (SELECT MAX(timestamp) FROM messages WHERE session_id = s.id), started_at "
        "FROM sessions s WHERE id = ?", (sid,)).fetchone()
    ok = [v for v in (la, mx) if isinstance(v, (int, float)) and EPOCH_MIN <= v <= EPOCH_MAX]
    if ok:
        return max(ok)
    return st if isinstance(st, (int, float)) and EPOCH_MIN <= st <= EPOCH_MAX else None


def main():
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
    for line in open(sys.argv[2], encoding="utf-8"):
        s = json.loads(line, parse_constant=parse_const)
        msgs = [row(m) for m in s.pop("messages")]
        bulk = "last_active" in s
        s.pop("last_active", None)
        out = dict(s)
        if bulk:
            out["last_active"] = last_active(db, s["id"])
        try:
            cfg = json.loads(s.get("model_config") or "")
        except ValueError:
            cfg = None
        for k in ("_reset_from", "_branched_from"):
            if isinstance(cfg, dict) and cfg.get(k) is not None:
                out[k] = cfg[k]
        out["messages"] = msgs
        out["timings"] = timings(msgs)
        text = json.dumps(out, ensure_ascii=False)
        sys.stdout.write(text.replace("Infinity", "1e999") + "\n")


if __name__ == "__main__":
    main()
