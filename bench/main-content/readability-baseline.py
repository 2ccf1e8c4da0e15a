"""Readability baseline for bench/main-content: runs readability-lxml (Debian package
python3-readability) on the HTML files named on stdin (one JSON list) and prints
{path: summary_html} as JSON. Exit code 3 when the package is missing."""
import json
import sys

try:
    from readability import Document
except ImportError:
    sys.exit(3)

out = {}
for path in json.load(sys.stdin):
    try:
        with open(path, 'rb') as f:
            raw = f.read()
        doc = Document(raw.decode('utf-8', errors='replace'))
        out[path] = doc.summary(html_partial=True)
    except Exception as e:  # a failing page counts as empty output
        out[path] = ''
        print(f'{path}: {e}', file=sys.stderr)
json.dump(out, sys.stdout)
