"""Progress: a line a second on a terminal only; the final word everywhere."""

import io

from consumers.ingest import IngestSummary, Progress


class Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_goes_to_a_terminal_only_but_the_final_word_everywhere():
    summary = IngestSummary()
    log = Stream(tty=False)
    Progress(log, interval=0).update(summary)
    assert log.getvalue() == ""
    Progress(log).update(summary, final=True)
    assert log.getvalue() == summary.line() + "\n"
    terminal = Stream(tty=True)
    Progress(terminal, interval=0).update(summary)
    assert terminal.getvalue() == "\r" + summary.line()
