package dev.weir.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;

import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.codec.LateFields;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.TestDatabase;
import dev.weir.testsupport.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The results table of a pipeline with named aggregates against a real server: one column per aggregate, bigint at
 * scale 0 and numeric at its scale otherwise, NULL where the stored result's presence mask says the window has no
 * value for it; a table of the old shape is refused untouched; late events have a NULL value. The output journals
 * are written by hand (N values, then the presence mask), so the rows are known exactly.
 */
@Tag("slow")
class NamedAggregatesTableTest
{
    /** A candle: open at scale 2, volume at 0, vwap at 6, big (a filtered sum) at 0. */
    private static final String[] NAMES = {"open", "volume", "vwap", "big"};
    private static final int[] SCALES = {2, 0, 6, 0};
    private static final String SELECT = "SELECT key, window_start, window_end, open, volume, vwap, big, version FROM ";

    @TempDir
    Path dir;

    @RegisterExtension
    final TestTables tables = new TestTables("named_test");

    private Connection db;
    private String table;

    @BeforeEach
    void tables()
    {
        db = tables.db();
        table = tables.name();
    }

    @Test
    void oneTypedColumnPerAggregateExactDecimalsAndNullWhereAWindowHasNoValue() throws SQLException
    {
        final JournalDirectory journal = journal(dir.resolve("j"));
        final int a = keyId(journal, "a");
        final int b = keyId(journal, "b");
        try (OutputJournal output = OutputJournal.openForAppend(journal))
        {
            output.appendResult(new Result(a, 0, 1_000, 0, ResultKind.FINAL, 1, new long[] {12_345, 300, 123_456_789, 250}, 0b1111), 5);
            output.appendResult(new Result(b, 0, 1_000, 0, ResultKind.FINAL, 2, new long[] {-1, 7, 0, 0}, 0b0011), 5);
            output.appendResult(new Result(a, 1_000, 2_000, 0, ResultKind.FINAL, 3, new long[] {Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, 9},
                0b1111), 5);
            // a late event re-fires a's first window: the higher version replaces the row, an aggregate that had a value loses it
            output.appendResult(new Result(a, 0, 1_000, 1, ResultKind.FINAL, 4, new long[] {12_345, 301, 0, 0}, 0b0011), 5);
        }
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, shape(), 2))
        {
            assertEquals(4, sink.deliver(journal).results());
        }
        assertEquals(List.of(
                "key,text,NO", "window_start,bigint,NO", "window_end,bigint,NO", "open,numeric(38,2),YES", "volume,bigint,YES",
                "vwap,numeric(38,6),YES", "big,bigint,YES", "version,integer,NO", "source_offset,bigint,NO"),
            TestDatabase.rows(db, "SELECT a.attname, format_type(a.atttypid, a.atttypmod), CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END "
                + "FROM pg_attribute a WHERE a.attrelid = '" + table + "'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum"),
            "key columns, the window, one column per aggregate typed by its scale and nullable, version and source offset");
        assertEquals(List.of(
                "a,0,1000,123.45,301,null,null,1",
                "a,1000,2000,92233720368547758.07,-9223372036854775808,9223372036854.775807,9,0",
                "b,0,1000,-0.01,7,null,null,0"),
            sorted(SELECT + table), "exact decimals at each aggregate's scale; NULL where the presence mask's bit is clear");
    }

    @Test
    void aTableOfTheOldShapeIsRefusedUntouched() throws SQLException
    {
        PostgresSink.connect(TestDatabase.URL, table, ResultsTableShape.DEFAULT, 10).close();
        final SinkRefusedException refused = assertThrows(SinkRefusedException.class,
            () -> PostgresSink.connect(TestDatabase.URL, table, shape(), 10).close());
        assertTrue(refused.getMessage().contains("table " + table + " exists but does not match this pipeline's results (key key, "
            + "aggregates open,volume,vwap,big)"), refused.getMessage());
        assertTrue(refused.getMessage().contains("Expected columns (key text, window_start bigint, window_end bigint, open numeric(38,2), "
            + "volume bigint, vwap numeric(38,6), big bigint, version integer, source_offset bigint)"), refused.getMessage());
        assertTrue(refused.getMessage().contains("column open numeric(38,2) is missing"), refused.getMessage());
        assertTrue(refused.getMessage().contains("extra column count is NOT NULL without a default"), refused.getMessage());
        assertEquals(List.of("0"), TestDatabase.rows(db, "SELECT count(*) FROM information_schema.columns WHERE table_name = '" + table
            + "' AND column_name = 'open'"), "never altered");

        // a table of the named shape whose aggregate column is NOT NULL cannot hold an empty aggregate
        TestDatabase.execute(db, "DROP TABLE " + table);
        PostgresSink.connect(TestDatabase.URL, table, shape(), 10).close();
        TestDatabase.execute(db, "ALTER TABLE " + table + " ALTER COLUMN vwap SET NOT NULL");
        final SinkRefusedException notNull = assertThrows(SinkRefusedException.class,
            () -> PostgresSink.connect(TestDatabase.URL, table, shape(), 10).close());
        assertTrue(notNull.getMessage().contains("column vwap is NOT NULL, but an aggregate is NULL where a window has no value for it"),
            notNull.getMessage());
    }

    @Test
    void earlyRowsAreReplacedByTheFinalRowAndKeepTheFlag() throws SQLException
    {
        final JournalDirectory journal = journal(dir.resolve("j"));
        final int a = keyId(journal, "a");
        try (OutputJournal output = OutputJournal.openForAppend(journal))
        {
            output.appendResult(new Result(a, 0, 1_000, 0, ResultKind.EARLY, 1, new long[] {100, 5, 0, 0}, 0b0011), 5);
        }
        final ResultsTableShape early = shape().withEarly();
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, early, 10))
        {
            sink.deliver(journal);
            assertEquals(List.of("a,0,1000,1.00,5,null,null,-1,t"), sorted(SELECT.replace(" FROM", ", early FROM") + table), "the early row");
            try (OutputJournal output = OutputJournal.openForAppend(journal))
            {
                output.appendResult(new Result(a, 0, 1_000, 0, ResultKind.FINAL, 2, new long[] {100, 9, 1_500_000, 0}, 0b0111), 5);
            }
            sink.deliver(journal);
        }
        assertEquals(List.of("a,0,1000,1.00,9,1.500000,null,0,t"), sorted(SELECT.replace(" FROM", ", early FROM") + table),
            "the final row replaced it, and is early");
    }

    @Test
    void lateEventsOfAPipelineWithNamedAggregatesHaveANullValue() throws SQLException
    {
        final JournalDirectory journal = journal(dir.resolve("j"));
        final int b = keyId(journal, "b");
        try (OutputJournal output = OutputJournal.openForAppend(journal))
        {
            output.appendResult(new Result(b, 0, 1_000, 0, ResultKind.FINAL, 1, new long[] {1, 1, 1, 1}, 0b1111), 5);
            output.appendLate(new Late(b, 7, 500, 0, 2));
            output.appendLate(new Late(b, 8, 600, 0, 3));
        }
        final String late = table + "_late";
        try (PostgresSink sink = PostgresSink.connect(TestDatabase.URL, table, late, shape(), 10))
        {
            sink.deliver(journal);
            assertEquals(2, sink.lateEventsDelivered());
        }
        assertEquals(List.of("b,null,7,500,2", "b,null,8,600,3"), sorted("SELECT key, value, event_id, event_time, event_offset FROM " + late));
        assertEquals(List.of("value,bigint,YES"), TestDatabase.rows(db, "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
            + "WHERE table_name = '" + late + "' AND column_name = 'value'"), "value is nullable");

        // a late-events table made by a pipeline of a value (value NOT NULL) cannot take them
        final String valued = table + "_valued_late";
        PostgresSink.connect(TestDatabase.URL, table + "_valued", valued, ResultsTableShape.DEFAULT, 10).close();
        final SinkRefusedException refused = assertThrows(SinkRefusedException.class,
            () -> PostgresSink.connect(TestDatabase.URL, table + "_other", valued, shape(), 10).close());
        assertTrue(refused.getMessage().contains("column value is NOT NULL, but the late events of a pipeline with named aggregates have no value"),
            refused.getMessage());
    }

    private static ResultsTableShape shape()
    {
        return ResultsTableShape.named(JournalSchema.DEFAULT, new int[] {0}, NAMES, SCALES);
    }

    /** A journal of the default columns whose keys {@code a} and {@code b} exist (events only: the results are written by hand). */
    private static JournalDirectory journal(final Path path)
    {
        try (EventJournal writer = EventJournal.openOrCreate(path))
        {
            writer.append(0, 0, "a", 1);
            writer.append(1, 0, "b", 1);
        }
        return JournalDirectory.open(path);
    }

    private static int keyId(final JournalDirectory journal, final String key)
    {
        try (dev.weir.journal.KeyDictionary keys = dev.weir.journal.KeyDictionary.open(journal))
        {
            return keys.idOf(key);
        }
    }

    private List<String> sorted(final String query) throws SQLException
    {
        final List<String> rows = TestDatabase.rows(db, query);
        Collections.sort(rows);
        return rows;
    }

    /** A stored result with named aggregates: their values, then the presence mask. */
    private record Result(int keyId, long windowStart, long windowEnd, int version, ResultKind kind, long sourceOffset, long[] values, long presence)
        implements ResultFields
    {
        @Override
        public long count()
        {
            return 0;
        }

        @Override
        public long sum()
        {
            return 0;
        }

        @Override
        public long min()
        {
            return 0;
        }

        @Override
        public long max()
        {
            return 0;
        }

        @Override
        public long aggregate()
        {
            return values[0];
        }

        @Override
        public int aggregateCount()
        {
            return values.length + 1;
        }

        @Override
        public long aggregate(final int index)
        {
            return index == values.length ? presence : values[index];
        }
    }

    private record Late(int keyId, long eventId, long eventTime, long value, long offset) implements LateFields
    {
    }
}
