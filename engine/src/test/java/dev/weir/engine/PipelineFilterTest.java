package dev.weir.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.weir.engine.expr.ExpressionException;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.KeyTupleReader;
import dev.weir.journal.StringDictionaries;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline's filter and value expression given as text: the configuration string names them (and is
 * unchanged without them), an expression that does not compile is refused when the configuration is
 * concluded, and a string literal the journal has not seen yet matches the events that bring it, once
 * they are appended to a following pipeline's journal, while the events the filter rejects still move the
 * watermark.
 */
class PipelineFilterTest
{
    private static final JournalSchema SCHEMA = JournalSchema.parse("country:string,amount:decimal(2),fee:long");

    @TempDir
    Path dir;

    @Test
    void theConfigurationStringNamesTheFilterAndTheValueOnlyWhenSet()
    {
        final Path journal = dir.resolve("journal");
        EventJournal.openOrCreate(journal, SCHEMA).close();
        final PipelineBuilder plain = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).keyColumn("country").valueColumn("amount");
        assertTrue(plain.conclude().describe().endsWith(" key=country value=amount"), plain.conclude().describe());
        final String filtered = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).keyColumn("country")
            .where("country = 'NL'").value("amount - fee").conclude().describe();
        assertTrue(filtered.endsWith(" key=country value=amount - fee where=country = 'NL'"), filtered);
        final String java = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).keyColumn("country")
            .where(e -> e.longColumn(2) > 0, "fee>0").value("amount").conclude().describe();
        assertTrue(java.endsWith(" key=country value=amount where=fee>0"), java);
    }

    @Test
    void anExpressionThatDoesNotCompileIsRefusedWithItsPosition()
    {
        final Path journal = dir.resolve("journal");
        EventJournal.openOrCreate(journal, SCHEMA).close();
        final ExpressionException where = assertThrows(ExpressionException.class, () -> Weir.pipeline().journal(journal)
            .window(TumblingWindows.of(1_000)).keyColumn("country").valueColumn("amount").where("countr = 'NL'").conclude());
        assertEquals(0, where.position(), where.getMessage());
        final ExpressionException value = assertThrows(ExpressionException.class, () -> Weir.pipeline().journal(journal)
            .window(TumblingWindows.of(1_000)).keyColumn("country").value("amount - fees").conclude());
        assertEquals(9, value.position(), value.getMessage());
    }

    @Test
    void aLiteralNeverSeenMatchesOnceItAppearsAndRejectedEventsMoveTheWatermark() throws Exception
    {
        final Path journal = dir.resolve("journal");
        final List<String> results = new CopyOnWriteArrayList<>();
        try (EventJournal writer = EventJournal.openOrCreate(journal, SCHEMA))
        {
            append(writer, 1, 10_100, "FR", 500);
            append(writer, 2, 10_200, "DE", 700);
            final RunSummary summary;
            try (Pipeline pipeline = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).keyColumn("country")
                .where("country = 'NL'").value("amount")
                .onResult(r -> results.add(r.windowStart() + "," + r.count() + "," + r.sum() + " @" + r.sourceOffset()))
                .build().start())
            {
                final long nl = append(writer, 3, 10_300, "NL", 900);
                assertTrue(pipeline.awaitOffset(nl, 120, TimeUnit.SECONDS));
                assertEquals(List.of(), results);
                final long closing = append(writer, 4, 11_000, "FR", 100); // rejected, but its time closes [10,000, 11,000)
                assertTrue(pipeline.awaitOffset(closing, 120, TimeUnit.SECONDS));
                assertEquals(List.of("10000,1,900 @" + closing), results);
                summary = pipeline.stop();
            }
            assertEquals(1, summary.events(), "events kept");
            assertEquals(3, summary.filtered(), "events filtered out");
        }
    }

    /**
     * A composite key's ids are the journal's numbering of its tuples (KeyTuples: every event, in order), which is
     * how an export or a resumed run reads them back: the events the filter rejects are numbered too.
     */
    @Test
    void aCompositeKeyIdIsTheJournalsNumberingFilteredEventsIncluded()
    {
        final Path journal = dir.resolve("journal");
        try (EventJournal writer = EventJournal.openOrCreate(journal, SCHEMA))
        {
            append(writer, 1, 100, "FR", 500); // tuple (FR, 1): id 0, rejected
            append(writer, 2, 200, "NL", 700); // tuple (NL, 1): id 1, kept
        }
        final List<Integer> keys = new CopyOnWriteArrayList<>();
        Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).keyColumns("country", "fee").valueColumn("amount")
            .where("country = 'NL'").replayRange(-1, Long.MAX_VALUE).onResult(r -> keys.add(r.keyId())).build().runToEnd();
        assertEquals(List.of(1), keys);
        try (KeyTupleReader tuples = KeyTupleReader.open(JournalDirectory.open(journal), new int[] {0, 2});
             StringDictionaries strings = StringDictionaries.open(JournalDirectory.open(journal)))
        {
            assertEquals("NL", strings.dictionary(0).name((int)tuples.component(keys.get(0), 0)));
        }
    }

    /**
     * Two string columns of the events have separate dictionaries: a filter compares them by text, including a text
     * that one column carries first and the other only later (a different id in each).
     */
    @Test
    void twoStringColumnsCompareByText()
    {
        final Path journal = dir.resolve("journal");
        final JournalSchema travel = JournalSchema.parse("home:string,country:string,amount:long");
        try (EventJournal writer = EventJournal.openOrCreate(journal, travel))
        {
            final String[][] rows = {{"FR", "DE"}, {"DE", "DE"}, {"NL", "FR"}, {"FR", "FR"}, {"IT", "NL"}, {"NL", "NL"}, {"US", "IT"}};
            for (int i = 0; i < rows.length; i++)
            {
                writer.append(writer.row().eventId(i + 1).eventTime(100 + i).setString(0, writer.stringId(0, rows[i][0]))
                    .setString(1, writer.stringId(1, rows[i][1])).setLong(2, 1L << i));
            }
        }
        final List<String> results = new CopyOnWriteArrayList<>();
        final PipelineBuilder abroad = Weir.pipeline().journal(journal).window(TumblingWindows.of(1_000)).keyColumn("home").valueColumn("amount")
            .where("home != country").onResult(r -> results.add(r.key() + "," + r.sum()));
        assertTrue(abroad.conclude().describe().endsWith(" where=home != country"), abroad.conclude().describe());
        abroad.build().runToEnd();
        results.sort(null);
        assertEquals(List.of("FR,1", "IT,16", "NL,4", "US,64"), results);
    }

    private static long append(final EventJournal writer, final long id, final long time, final String country, final long cents)
    {
        return writer.append(writer.row().eventId(id).eventTime(time).setString(0, writer.stringId(0, country)).setLong(1, cents).setLong(2, 1));
    }
}
