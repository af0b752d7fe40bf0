"""Small builders shared by the tests."""

from __future__ import annotations

from coach.notation import tiles
from coach.notation.card import Card, parse_card
from coach.reading.tiles_away import Holding, parse_exposure


def make_card(*lines: tuple, name: str = "Test Card") -> Card:
    """A card from (id, pattern, value[, concealed[, numbers]]) tuples, one section."""
    hands = []
    for spec in lines:
        line_id, pattern, value, *rest = spec
        concealed = rest[0] if rest else False
        numbers = rest[1] if len(rest) > 1 else "fixed"
        hands.append(
            f'      - {{id: "{line_id}", pattern: "{pattern}", value: {value}, '
            f"concealed: {str(concealed).lower()}, numbers: {numbers}}}"
        )
    text = f"name: {name}\nsections:\n  - name: Test\n    hands:\n" + "\n".join(hands) + "\n"
    return parse_card(text)


def holding(rack: str, *exposed: str) -> Holding:
    return Holding.of(tiles.parse(rack), [parse_exposure(e, n) for n, e in enumerate(exposed, 1)])


def question_tile_src(app, code: str) -> str:
    """The opaque address a page gives the tile that is itself the question."""
    from coach.web.tiles.routes import question_url

    with app.test_request_context():
        return question_url(code)


def shows_question_tile(page, code: str) -> bool:
    """In a browser: the question's tile picture is `code`'s face, though its address does not say so."""
    from coach.web.tiles.routes import question_svg

    src = page.locator(".felt img").get_attribute("src") or ""
    return "/tiles/q/" in src and page.request.get(src).text() == question_svg(code)


def stop_waitress(server, thread, seconds: float = 10.0) -> None:
    """Stop a waitress server running `server.run` in `thread`, from its own
    loop: once its task threads are idle (a client has its answer a little
    before waitress's thread is done), every channel, the listening socket and
    the trigger are closed by a thunk the loop runs itself. Closing them from
    another thread could pull a file out from under the loop's select()
    ("Bad file descriptor" in the server's thread, a flaky test)."""
    import time

    dispatcher = server.task_dispatcher
    deadline = time.monotonic() + seconds
    while (dispatcher.active_count or dispatcher.queue) and time.monotonic() < deadline:
        time.sleep(0.02)

    def close_all() -> None:
        for channel in list(server._map.values()):
            if channel is not server and channel is not server.trigger:
                channel.close()
        server.close()  # the listening socket and the trigger: the map is empty, the loop ends

    server.trigger.pull_trigger(close_all)
    thread.join(timeout=seconds)
    dispatcher.shutdown()


def every_pass(card: Card, rack, seed: int):
    """The first-pass drill's evaluation of a question with every legal pass
    it scored listed (its grade lists only those worked out exactly): for
    tests that want a runner-up or a clearly worse pass to answer with."""
    from coach.advice.passes import evaluate_pass
    from drills import first_pass

    options = first_pass.question_options(flexibility=True, exact_only=False)
    return evaluate_pass(card, list(rack), "first-right", seed=seed, options=options)
