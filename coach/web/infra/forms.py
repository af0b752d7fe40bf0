"""Reading what an HTML form sent: text fields, and a file or its pasted text."""

from __future__ import annotations

import re

from flask import request


def field(name: str) -> str:
    """A form field as text ('' when missing), never a list or a file."""
    value = request.form.get(name, "")
    return value if isinstance(value, str) else ""


def uploaded_text(file_field: str, text_field: str) -> tuple[str, str, str | None]:
    """The text a form sent as a file or pasted: (text, source name, problem).
    A chosen file wins over the text box."""
    upload = request.files.get(file_field)
    if upload is not None and upload.filename:
        data = upload.read()
        name = re.sub(r"[^\w. -]+", "", upload.filename.rsplit("/", 1)[-1].rsplit("\\", 1)[-1])[:80] or "file"
        try:
            return data.decode("utf-8-sig"), name, None
        except UnicodeDecodeError:
            return "", name, f"\u201c{name}\u201d is not a text file in UTF-8. Save it as plain text (YAML) and try again."
    text = field(text_field)
    if not text.strip():
        return "", "", "Choose a file, or paste its text into the box."
    return text, "", None


def echo(text: str, max_bytes: int) -> str:
    """Pasted text to show again in the form, so it can be fixed there;
    none when it is over the size cap (the page stays small)."""
    return text if len(text.encode("utf-8", "surrogatepass")) <= max_bytes else ""
