"""The reference rewriter: scan by text, then one small module per reference form.

`plan_changes(prep)` is the entry point; `scan.candidates` and `scan.old_name_regex`
are shared with the text-file rewriter and `migrate check --stale`.
"""
