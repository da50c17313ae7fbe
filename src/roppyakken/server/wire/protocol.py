"""What both websockets share (docs/PROTOCOL.md, version 1): the version, message ids and refusals.

The messages themselves are declared by direction: server/wire/client.py (client to
server, ``/ws/<room>``), server/wire/server.py (server to client, ``/ws/<room>``) and
server/wire/lobby.py (both directions of ``/ws/lobby``).
"""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import Field

from roppyakken.errors import Phrase, RoppyakkenError
from roppyakken.i18n import N_

VERSION: Final = 1
"""The protocol version this server speaks (``hello.v``)."""
MAX_ID_LENGTH: Final = 64
"""The longest message ``id`` a client may send (echoed in the answer)."""

MessageId = Annotated[str | None, Field(default=None, max_length=MAX_ID_LENGTH)]
"""A client message's optional ``id``, echoed in its answer."""


class ProtocolError(RoppyakkenError):
    """A malformed or refused client message; ``id`` is echoed in the error answer.

    Like every :class:`RoppyakkenError` it keeps its template and fields, which the ``error``
    message carries for the client to say in its language (server/wire/wording.py).
    """

    def __init__(self, message: object, msg_id: str | None = None, /, **fields: object) -> None:
        super().__init__(message, **fields)
        self.msg_id = msg_id

    @classmethod
    def of(cls, error: RoppyakkenError, msg_id: str | None = None) -> ProtocolError:
        """``error`` (an illegal action, a bad option) refusing the message ``msg_id``."""
        return cls(error.template, msg_id, **error.fields)


class Refused(ValueError):
    """A field's own one-line refusal, raised inside a validator (pydantic passes it on as the cause)."""

    def __init__(self, said: RoppyakkenError | str) -> None:
        super().__init__(str(said))
        self.said = said if isinstance(said, RoppyakkenError) else RoppyakkenError(said)
        """The refusal with its template and fields (server/wire/wording.py)."""


def what(field: str, known: dict[str, str], **fields: object) -> Phrase:
    """What ``field`` must be, as words to translate (the protocol document's, for a field not in
    ``known``), with those of ``fields`` its template names."""
    words = known.get(field, N_("as docs/PROTOCOL.md says"))
    return Phrase(words, **{name: value for name, value in fields.items() if f"{{{name}}}" in words})
