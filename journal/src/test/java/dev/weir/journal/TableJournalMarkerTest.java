package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.journal.schema.TableRowView;

/**
 * The marker of a journal with reference tables (version 4): a journal made by a table's ingest has its events
 * pending until the first event ingest fixes their columns; a table added to a version 2 or 3 journal keeps its
 * lines; the same table again is accepted, another definition refused (the marker left as it was); a second
 * process adds a table that a reader opened before reads.
 */
class TableJournalMarkerTest
{
    static final TableDefinition CARDS = TableDefinition.parse("cards", "card", "card:string,home:string,limit:decimal(2)=0,segment:string");
    static final TableDefinition FX = TableDefinition.parse("fx", "base,quote", "base:string,quote:string,rate:decimal(6)");
    static final JournalSchema PAYMENTS = JournalSchema.parse("card:string,country:string,amount:decimal(2)");

    @TempDir
    Path dir;

    @Test
    void aTableIngestMakesAJournalWhoseEventsArePendingAndTheFirstEventIngestFixesThem() throws IOException
    {
        final JournalDirectory made = JournalDirectory.openOrCreateForTable(dir, CARDS, null);
        assertEquals(List.of("format=weir-journal", "version=5", "id=" + made.id(), "events=pending",
            "table=cards key=card columns=card:string,home:string,limit:decimal(2)=0.00,segment:string"), markerLines());
        assertTrue(made.eventsPending());
        assertEquals(List.of(CARDS), made.tables());
        assertEquals(JournalDirectory.FORMAT_VERSION_BATCHED, made.formatVersion());
        assertEquals(JournalSchema.DEFAULT, made.schema());
        try (EventJournal journal = EventJournal.open(made))
        {
            final TableAppender cards = journal.table("cards");
            assertTrue(cards.upsert(cards.row().setString(0, "c1").setString(1, "DE")) > 0, "a table row is appended");
            final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> journal.append(1, 1, "k", 1));
            assertTrue(refused.getMessage().contains("its events' columns are not fixed yet"), refused.getMessage());
        }
        assertTrue(JournalDirectory.openOrCreate(dir, null).eventsPending(), "opened without columns: still pending");

        final JournalDirectory fixed = JournalDirectory.openOrCreate(dir, PAYMENTS);
        assertFalse(fixed.eventsPending());
        assertEquals(PAYMENTS, fixed.schema());
        assertEquals(made.id(), fixed.id(), "the journal keeps its id");
        assertEquals(List.of("format=weir-journal", "version=5", "id=" + made.id(), "schema=" + PAYMENTS,
            "table=cards key=card columns=card:string,home:string,limit:decimal(2)=0.00,segment:string"), markerLines());
        try (EventJournal journal = EventJournal.openOrCreate(dir, PAYMENTS))
        {
            final EventRow row = journal.row();
            journal.append(row.eventId(1).eventTime(2).setString(0, journal.stringId(0, "c1")).setString(1, journal.stringId(1, "FR"))
                .setLong(2, 100));
        }
        final JournalSchema gained = JournalSchema.parse(PAYMENTS + ",channel:string=web");
        JournalDirectory.openOrCreate(dir, gained);
        final List<String> lines = markerLines();
        assertEquals("version=5", lines.get(1), "a journal of batched documents with tables stays version 5 when it gains columns");
        assertTrue(lines.get(4).startsWith("added=2 at="), "the added columns' line comes before the tables': " + lines);
        assertTrue(lines.get(5).startsWith("table=cards "), lines.toString());
        assertEquals(gained.toString(), JournalDirectory.open(dir).schema().toString());
    }

    @Test
    void aDefaultEventIngestFixesPendingEventsWithoutASchemaLine() throws IOException
    {
        JournalDirectory.openOrCreateForTable(dir, CARDS, JournalRollCycle.HOURLY);
        assertEquals(JournalSchema.DEFAULT, JournalDirectory.openOrCreate(dir, JournalSchema.DEFAULT).schema());
        final List<String> lines = markerLines();
        assertEquals(List.of("format=weir-journal", "version=5", lines.get(2), "roll-cycle=hourly", "table=" + CARDS.text()), lines);
        assertFalse(JournalDirectory.open(dir).eventsPending());
    }

    @Test
    void aTableAddedToAVersion3JournalKeepsItsLinesAndMakesItVersion4() throws IOException
    {
        JournalDirectory.create(dir, PAYMENTS);
        IndexedJournals.indexed(dir); // as a Weir before batches created it
        final String v2 = marker();
        JournalDirectory.openOrCreateForTable(dir, CARDS, null).formatVersion();
        assertEquals(v2.replace("version=2", "version=4") + "table=" + CARDS.text() + "\n", marker(), "a version 2 journal gains the line");

        final Path other = dir.resolve("other");
        JournalDirectory.create(other, PAYMENTS);
        IndexedJournals.indexed(other);
        JournalDirectory.openOrCreate(other, JournalSchema.parse(PAYMENTS + ",channel:string=web"));
        final String v3 = Files.readString(other.resolve(JournalDirectory.MARKER_FILE));
        assertTrue(v3.contains("version=3\n") && v3.contains("\nadded=2 at="), v3);
        final JournalDirectory withTables = JournalDirectory.openOrCreateForTable(other, FX, null);
        assertEquals(v3.replace("version=3", "version=4") + "table=" + FX.text() + "\n",
            Files.readString(other.resolve(JournalDirectory.MARKER_FILE)), "a version 3 journal keeps its added= lines");
        assertEquals(2, withTables.schema().generation());
        assertEquals(List.of(FX), withTables.tables());
        JournalDirectory.openOrCreateForTable(other, CARDS, null);
        assertEquals(List.of(FX, CARDS), JournalDirectory.open(other).tables(), "a table's index is its place in the marker");
        assertEquals(CARDS, JournalDirectory.open(other).table("cards"));
        assertNull(JournalDirectory.open(other).table("merchants"));
    }

    @Test
    void theSameTableAgainIsAcceptedAndAnotherDefinitionRefusedNamingBoth() throws IOException
    {
        JournalDirectory.openOrCreateForTable(dir, CARDS, null);
        final String before = marker();
        assertEquals(List.of(CARDS), JournalDirectory.openOrCreateForTable(dir,
            TableDefinition.parse("cards", "card", "card:string,home:string,limit:decimal(2)=0,segment:string"), null).tables());
        assertEquals(before, marker(), "the same definition: the marker is not rewritten");
        final JournalRefusedException refused = assertThrows(JournalRefusedException.class, () -> JournalDirectory.openOrCreateForTable(dir,
            TableDefinition.parse("cards", "card,home", "card:string,home:string,limit:decimal(2)"), null));
        assertTrue(refused.getMessage().endsWith(": table cards exists with key card and columns card:string,home:string,limit:decimal(2)=0.00,"
            + "segment:string; this ingest gave key card,home and columns card:string,home:string,limit:decimal(2)"), refused.getMessage());
        assertFalse(refused.getMessage().contains("\n"), "one line");
        assertEquals(before, marker());
        assertThrows(JournalRefusedException.class, () -> JournalDirectory.openOrCreateForTable(dir, CARDS, JournalRollCycle.HOURLY),
            "the roll cycle is checked as for events");
    }

    @Test
    void aTableIsNotAddedWhileAnAppenderHoldsTheJournal() throws IOException
    {
        JournalDirectory.create(dir, PAYMENTS);
        final String before = marker();
        try (EventJournal appender = EventJournal.openOrCreate(dir, PAYMENTS))
        {
            final JournalRefusedException refused = assertThrows(JournalRefusedException.class,
                () -> JournalDirectory.openOrCreateForTable(dir, CARDS, null));
            assertTrue(refused.getMessage().contains("events.lock"), refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> appender.table("cards"), "no such table in the appender's journal");
        }
        assertEquals(before, marker());
    }

    @Test
    void aTableAddedByASecondProcessIsReadByAReaderOpenedBefore() throws Exception
    {
        JournalDirectory.create(dir, PAYMENTS);
        try (EventJournal journal = EventJournal.openOrCreate(dir, PAYMENTS))
        {
            final EventRow row = journal.row();
            journal.append(row.eventId(1).eventTime(1).setString(0, journal.stringId(0, "c")).setString(1, journal.stringId(1, "DE")).setLong(2, 1));
        }
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(dir)))
        {
            assertEquals("appended 3", child(dir, "cards", "card", "card:string,home:string,limit:decimal(2)=0,segment:string", 3).trim());
            assertEquals("appended 2", child(dir, "cards", "card", "card:string,home:string,limit:decimal(2)=0,segment:string", 2).trim(),
                "a second ingest of the same table is accepted");
            final List<String> read = new ArrayList<>();
            final EventViewConsumer consumer = new EventViewConsumer()
            {
                @Override
                public void onEvent(final long offset, final dev.weir.journal.schema.EventView event)
                {
                    read.add("event " + event.eventId());
                }

                @Override
                public void onTableRow(final long offset, final TableRowView row)
                {
                    read.add("row " + row.table() + " " + row.string(0) + " from " + row.validFrom());
                }
            };
            while (reader.poll(consumer, 100) > 0)
            {
                // to the end
            }
            assertEquals(List.of("event 1", "row 0 k0 from 0", "row 0 k1 from 1", "row 0 k2 from 2", "row 0 k0 from 0", "row 0 k1 from 1"), read);
        }
        final String refused = child(dir, "cards", "card", "card:string,home:string", 1);
        assertTrue(refused.startsWith("refused: ") && refused.contains("table cards exists with key card"), refused);
    }

    private List<String> markerLines() throws IOException
    {
        return Files.readAllLines(dir.resolve(JournalDirectory.MARKER_FILE), StandardCharsets.UTF_8);
    }

    private String marker() throws IOException
    {
        return Files.readString(dir.resolve(JournalDirectory.MARKER_FILE), StandardCharsets.UTF_8);
    }

    /** Run {@link TableIngestChild} in a JVM with this one's flags; its output. */
    private static String child(final Path journal, final String name, final String key, final String columns, final int rows) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String option : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (option.startsWith("--add-") || option.startsWith("-Dchronicle"))
            {
                command.add(option);
            }
        }
        command.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"), TableIngestChild.class.getName(), journal.toString(),
            name, key, columns, Integer.toString(rows)));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the child ends");
        return output.lines().filter(l -> l.startsWith("appended") || l.startsWith("refused")).findFirst().orElse(output);
    }
}
