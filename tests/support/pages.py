"""Reading the drill pages: the CSRF token a page carries and a drill's question form."""

from __future__ import annotations

import re


def csrf_of(html: str) -> str:
    match = META.search(html)
    assert match, "no CSRF meta tag"
    return match.group(1)


def open_drill(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    html = response.get_data(as_text=True)
    return html, csrf_of(html), TOKEN_INPUT.search(html).group(1)


META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


TOKEN_INPUT = re.compile(r'name="token" value="([^"]+)"')
