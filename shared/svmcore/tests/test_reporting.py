"""svmcore.reporting: the per-iteration tables every estimator's ``verbose`` prints."""

import copy
import io
import pickle

import numpy as np
import pytest

from svmcore.reporting import Column, History, Recorder, Table, TablePrinter, parse_table

TABLE = Table(
    [
        Column("iter", "iter", "{:d}", 4),
        Column("objective", "objective", "{:.6g}", 12),
        Column("step", "step"),
        Column("note", "note", width=0),
    ]
)
RECORDS = [
    {"iter": 1, "objective": 3.0, "step": "partial pricing", "note": "warm start, tol=1e-3"},
    {"iter": 2, "objective": float("nan"), "step": None, "note": ""},
    {"iter": 3, "objective": 1.25, "extra": [1, 2]},  # step and note missing, extra ignored
]


def test_rows_parse_back_one_field_per_column():
    text = TABLE.render(RECORDS)
    lines = text.splitlines()
    assert len(lines) == 1 + len(RECORDS)
    assert lines[0].split() == ["iter", "objective", "step", "note"]
    rows = parse_table(text)
    assert rows == [
        {"iter": "1", "objective": "3", "step": "partial_pricing", "note": "warm start, tol=1e-3"},
        {"iter": "2", "objective": None, "step": None, "note": None},
        {"iter": "3", "objective": "1.25", "step": None, "note": None},
    ]


def test_columns_are_aligned_and_overflow_still_parses():
    wide = {"iter": 123456789, "objective": 1e300, "step": "x" * 40}
    text = TABLE.render([RECORDS[0], wide])
    header, first, _ = text.splitlines()
    # right-aligned fixed-width columns: the first two end where their headers end
    assert first.index("3") + 1 == header.index("objective") + len("objective")
    assert parse_table(text)[1]["iter"] == "123456789"


def test_a_format_the_value_rejects_falls_back_to_str():
    assert Column("n", "n", "{:d}").cell(2.5) == "2.5"
    assert Column("n", "n", "{:d}").cell(np.int64(7)) == "7"
    assert Column("flag", "flag").cell(True) == "True"


@pytest.mark.parametrize(
    ("columns", "match"),
    [
        ([], "at least one column"),
        ([Column("a", "a"), Column("a", "b")], "unique"),
        ([Column("a", "a", width=0), Column("b", "b")], "last"),
    ],
)
def test_bad_layouts_are_rejected(columns, match):
    with pytest.raises(ValueError, match=match):
        Table(columns)


def test_headers_are_one_word():
    with pytest.raises(ValueError, match="one word"):
        Column("iter_time", "iter s")


def test_printer_prints_header_once_then_rows_and_remarks():
    stream = io.StringIO()
    show = TablePrinter(TABLE, stream=stream)
    show.remark("start")
    for record in RECORDS:
        show(record)
    show.remark("stopped: converged")
    lines = stream.getvalue().splitlines()
    assert lines[0] == "# start" and lines[-1] == "# stopped: converged"
    assert lines[1:-1] == TABLE.render(RECORDS).splitlines()
    assert len(parse_table(stream.getvalue())) == len(RECORDS)


def test_disabled_printer_prints_nothing(capsys):
    show = TablePrinter(TABLE, enabled=False)
    show(RECORDS[0])
    show.remark("nothing")
    assert capsys.readouterr().out == ""


def test_printer_writes_to_stdout_by_default(capsys):
    TablePrinter(TABLE)(RECORDS[0])
    assert capsys.readouterr().out.splitlines()[0].split() == ["iter", "objective", "step", "note"]


def test_parse_table_rejects_a_short_row():
    with pytest.raises(ValueError, match="Line 2 has 1 fields"):
        parse_table("a b\n1")
    assert parse_table("# only a remark\n\n") == []


def test_history_is_a_list_with_columns_and_a_table():
    h = History(RECORDS, table=TABLE)
    assert isinstance(h, list) and h == RECORDS and h[0] is not RECORDS[0]
    np.testing.assert_array_equal(h.column("iter"), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(h.column("objective"), [3.0, np.nan, 1.25])
    assert h.column("step").dtype == object
    assert h.column("extra")[2] == [1, 2]  # any record key is a column (objects here)
    with pytest.raises(KeyError, match="Unknown column 'nope'"):
        h.column("nope")
    assert h.to_table() == TABLE.render(RECORDS)
    h.append({"iter": 4})
    assert len(parse_table(h.to_table())) == 4


def test_history_without_a_table_shows_every_key():
    h = History([{"a": 1}, {"b": 2.5}])
    assert parse_table(h.to_table()) == [{"a": "1", "b": None}, {"a": None, "b": "2.5"}]
    assert History().to_table().split() == ["record"]


def test_history_pickles_and_copies_with_its_layout():
    h = History([RECORDS[0], RECORDS[2]], table=TABLE)
    for other in (pickle.loads(pickle.dumps(h)), copy.deepcopy(h)):
        assert type(other) is History and other == h and other.table == TABLE
        assert other.to_table() == h.to_table()


def test_recorder_stamps_keeps_and_reports_in_order():
    ticks = iter([10.0, 10.5, 12.0])
    seen = []
    log = Recorder(seen.append, clock=lambda: next(ticks))
    log({"iter": 1})
    log({"iter": 2})
    assert log.records == [{"iter": 1, "time": 0.5}, {"iter": 2, "time": 2.0}]
    assert seen == log.records and seen[0] is log.records[0]


def test_recorder_without_report_or_time():
    log = Recorder(time_key=None)
    log({"iter": 1})
    assert log.records == [{"iter": 1}]
