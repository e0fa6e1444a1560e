package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.EventDecoder;
import dev.weir.journal.codec.EventEncoder;
import dev.weir.journal.codec.EventShape;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.NewerFormatException;

/**
 * A live journal gains columns: the marker of a journal that never did stays version 2 byte for byte; adding
 * columns writes version 3 with the schema's history, durable and under the events lock, and a newer version is
 * refused; the event documents of generation 2 have the layout {@link EventEncoder} documents (their bytes are golden:
 * {@link JournalGoldenBytesTest});
 * earlier events read the defaults through every reader (a reader opened before the change included); the
 * dictionary snapshot and history base written before the change still restore.
 */
class AddedColumnsJournalTest
{
    static final JournalSchema FOUR = JournalSchema.parse("country:string,card:string,amount:decimal(2),fee:long");
    static final JournalSchema SIX = JournalSchema.parse(FOUR + ",channel:string=web,tip:decimal(2)=0.5");
    static final int COUNTRY = 0;
    static final int CARD = 1;
    static final int AMOUNT = 2;
    static final int FEE = 3;
    static final int CHANNEL = 4;
    static final int TIP = 5;

    @TempDir
    Path dir;

    @Test
    void aJournalThatNeverGainedColumnsKeepsItsVersion2MarkerByteForByte() throws IOException
    {
        final JournalDirectory journal = JournalDirectory.create(dir, FOUR, JournalRollCycle.HOURLY);
        final String expected = "format=weir-journal\nversion=2\nid=" + journal.id() + "\nschema=" + FOUR + "\nroll-cycle=hourly\n";
        assertEquals(expected, marker());
        // the same columns again, with defaults on columns it was created with (ignored), open it unchanged
        JournalDirectory.openOrCreate(dir, JournalSchema.parse("country:string=x,card:string,amount:decimal(2)=1,fee:long"));
        EventJournal.openOrCreate(dir, FOUR).close();
        assertEquals(expected, marker());
        assertEquals(1, JournalDirectory.open(dir).schemaHistory().size());
        // a journal created with defaults keeps none: they mean something only on a column added later
        final JournalDirectory withDefaults = JournalDirectory.create(dir.resolve("d"), SIX);
        assertEquals(SIX.withoutDefaults(), withDefaults.schema());
        assertTrue(Files.readString(withDefaults.root().resolve(JournalDirectory.MARKER_FILE)).contains("version=2\n"));
    }

    @Test
    void addingColumnsWritesAVersion3MarkerWithTheSchemasHistory() throws IOException
    {
        final JournalDirectory created = JournalDirectory.create(dir, FOUR, JournalRollCycle.HOURLY);
        final String v2 = marker();
        final JournalDirectory six = JournalDirectory.openOrCreate(dir, SIX);
        assertEquals(SIX, six.schema());
        assertEquals(2, six.schema().generation());
        final List<String> lines = List.of(marker().split("\n"));
        assertEquals(List.of(v2.replace("version=2", "version=3").split("\n")), lines.subList(0, 5), "the same lines, version 3");
        assertEquals(6, lines.size());
        assertTrue(lines.get(5).matches("added=2 at=\\S+Z columns=channel:string=web,tip:decimal\\(2\\)=0\\.50"), lines.get(5));

        final JournalDirectory reopened = JournalDirectory.open(dir);
        assertEquals(2, created.formatVersion());
        assertEquals(3, reopened.formatVersion());
        assertEquals(created.id(), reopened.id());
        assertEquals(JournalRollCycle.HOURLY, reopened.rollCycle());
        final List<JournalDirectory.Generation> history = reopened.schemaHistory();
        assertEquals(2, history.size());
        assertEquals(new JournalDirectory.Generation(1, FOUR, FOUR.columns(), null), history.get(0));
        assertEquals(2, history.get(1).number());
        assertEquals(SIX, history.get(1).schema());
        assertEquals(SIX.columns().subList(4, 6), history.get(1).added());
        assertNotNull(history.get(1).at());

        final JournalSchema seven = JournalSchema.parse(SIX + ",n:long=-1");
        assertEquals(3, JournalDirectory.openOrCreate(dir, seven).schema().generation());
        assertEquals(List.of(1, 2, 3), JournalDirectory.open(dir).schemaHistory().stream().map(JournalDirectory.Generation::number).toList());
        assertEquals(JournalDirectory.open(dir).schema(), JournalDirectory.openOrCreate(dir, seven).schema(), "the same columns: opened as they are");
        assertEquals(7, JournalDirectory.openOrCreate(dir, null).schema().size());
    }

    @Test
    void aMarkerOfANewerVersionIsRefusedNamingBothVersions() throws IOException
    {
        JournalDirectory.create(dir, FOUR);
        JournalDirectory.openOrCreate(dir, SIX);
        final Path file = dir.resolve(JournalDirectory.MARKER_FILE);
        // version 5 (batched documents) is read since batches; a build before them refused it as this build refuses version 6
        Files.writeString(file, marker().replace("version=3", "version=6"), StandardCharsets.UTF_8);
        final NewerFormatException ex = assertThrows(NewerFormatException.class, () -> JournalDirectory.open(dir));
        assertEquals(6, ex.found());
        assertEquals(JournalDirectory.FORMAT_VERSION_BATCHED, ex.newestRead());
        assertTrue(ex.getMessage().contains("journal marker version 6"), ex.getMessage());
        assertThrows(NewerFormatException.class, () -> EventJournal.openOrCreate(dir, SIX));
    }

    @Test
    void aRefusedChangeLeavesTheMarkerAsItWas() throws IOException
    {
        JournalDirectory.create(dir, FOUR);
        final String before = marker();
        final JournalRefusedException renamed = assertThrows(JournalRefusedException.class, () -> JournalDirectory.openOrCreate(dir,
            JournalSchema.parse("country:string,cardholder:string,amount:decimal(2),fee:long,channel:string=web")));
        assertTrue(renamed.getMessage().contains("column 2 is 'card', not 'cardholder': a journal's columns cannot be removed or renamed"),
            renamed.getMessage());
        final JournalRefusedException noDefault = assertThrows(JournalRefusedException.class,
            () -> EventJournal.openOrCreate(dir, JournalSchema.parse(FOUR + ",channel:string")));
        assertTrue(noDefault.getMessage().contains("column 'channel' is added without a default"), noDefault.getMessage());
        assertEquals(before, marker());
    }

    @Test
    void columnsAreNotAddedWhileAnAppenderHoldsTheJournal() throws IOException
    {
        try (EventJournal appender = EventJournal.openOrCreate(dir, FOUR))
        {
            final JournalRefusedException ex = assertThrows(JournalRefusedException.class, () -> JournalDirectory.openOrCreate(dir, SIX));
            assertTrue(ex.getMessage().contains("already has an appender"), ex.getMessage());
            assertEquals(FOUR, JournalDirectory.open(dir).schema());
            assertEquals(FOUR, appender.schema());
        }
        assertEquals(SIX, JournalDirectory.openOrCreate(dir, SIX).schema());
    }

    @Test
    void anEventOfGeneration2HasItsLayout()
    {
        final JournalSchema six = FOUR.extend(SIX);
        final EventShape shape = EventShape.of(six);
        assertEquals(List.of(33, 37, 17, 25, 44, 48), List.of(shape.offset(COUNTRY), shape.offset(CARD), shape.offset(AMOUNT),
            shape.offset(FEE), shape.offset(CHANNEL), shape.offset(TIP)));
        assertEquals(41, shape.baseLength());
        assertEquals(41, shape.length(1));
        assertEquals(56, shape.length());
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        new EventEncoder(shape).wrap(bytes, true).eventId(7).eventTime(8).stringId(COUNTRY, 0).stringId(CARD, 3).longColumn(AMOUNT, 1234)
            .longColumn(FEE, -5).stringId(CHANNEL, 1).longColumn(TIP, 99).text("c").text("app").line(42);
        // its bytes are golden: event-document-extended-v3 (JournalGoldenBytesTest)

        final EventDecoder decoder = new EventDecoder(shape);
        assertTrue(decoder.wrap(bytes));
        assertEquals(2, decoder.generation());
        assertEquals(1L << CARD | 1L << CHANNEL, decoder.newStrings((column, id) -> column == COUNTRY));
        assertEquals("c", decoder.text(CARD));
        assertEquals("app", decoder.text(CHANNEL));
        assertEquals(42, decoder.line());
        assertEquals(99, decoder.longColumn(TIP));

        // a document of generation 1 read through generation 2: the added columns' defaults
        final Bytes<?> old = Bytes.allocateElasticOnHeap();
        new EventEncoder(EventShape.of(FOUR)).wrap(old, true).eventId(1).eventTime(2).stringId(COUNTRY, 4).stringId(CARD, 5)
            .longColumn(AMOUNT, 6).longColumn(FEE, 7).text("x").line(3);
        assertEquals(DocumentType.EVENT_NEW_KEY, old.readByte(0));
        assertTrue(decoder.wrap(old));
        assertEquals(1, decoder.generation());
        assertEquals(0, decoder.stringId(CHANNEL), "the default's id");
        assertEquals(50, decoder.longColumn(TIP), "0.50");
        assertEquals(4, decoder.stringId(COUNTRY));
        assertEquals(1L << CARD, decoder.newStrings((column, id) -> column == COUNTRY));
        assertEquals("x", decoder.text(CARD));
        assertEquals(3, decoder.line());

        // and through generation 1 (a reader opened before the columns were added): its columns, and the strings of them
        final EventDecoder stale = new EventDecoder(EventShape.of(FOUR));
        assertTrue(stale.wrap(bytes));
        assertEquals(1234, stale.longColumn(AMOUNT));
        assertEquals(3, stale.stringId(CARD));
        stale.newStrings((column, id) -> column == COUNTRY);
        assertEquals("c", stale.text(CARD));
        assertThrows(IllegalStateException.class, stale::line, "the added column's string lies before it");
    }

    @Test
    void earlierEventsReadTheDefaultsThroughEveryReader()
    {
        final JournalDirectory before = JournalDirectory.create(dir, FOUR);
        try (EventJournal journal = EventJournal.open(before))
        {
            journal.appendIngestStart("a.csv", 1);
            append(journal, 1, 100, "NL", "c1", 1000, 1, null, 0, 1);
            append(journal, 2, 200, "FR", "c2", 2000, 2, null, 0, 2);
        }
        try (JournalReader stale = JournalReader.open(before);
             StringDictionaries staleStrings = StringDictionaries.open(before))
        {
            try (EventJournal journal = EventJournal.openOrCreate(dir, SIX))
            {
                assertEquals(0, journal.stringId(CHANNEL, "web"), "the default is id 0");
                journal.appendIngestStart("b.csv", 1);
                append(journal, 3, 300, "DE", "c3", 3000, 3, "app", 25, 1);
                append(journal, 4, 400, "NL", "c1", 4000, 4, "web", 75, 2);
            }
            // the reader and dictionaries opened before the columns were added read on: their columns, their strings
            final List<String> seen = new ArrayList<>();
            stale.poll((EventViewConsumer)(offset, e) -> seen.add(staleStrings.dictionary(COUNTRY).name(e.stringId(COUNTRY)) + ","
                + staleStrings.dictionary(CARD).name(e.stringId(CARD)) + "," + e.longColumn(AMOUNT)), 100);
            assertEquals(List.of("NL,c1,1000", "FR,c2,2000", "DE,c3,3000", "NL,c1,4000"), seen);
        }
        final JournalDirectory after = JournalDirectory.open(dir);
        assertEquals(List.of("1,NL,c1,1000,1,web,50", "2,FR,c2,2000,2,web,50", "3,DE,c3,3000,3,app,25", "4,NL,c1,4000,4,web,75"),
            read(after));
        final IngestLog.Counts counts = IngestLog.counts(after);
        assertEquals(4, counts.events());
        assertEquals(3, IngestLog.nextLine(after, "b.csv"), "the lines of events of generation 2 are read");
        try (StringDictionaries strings = StringDictionaries.open(after))
        {
            assertEquals(4, strings.counts().events());
        }
    }

    @Test
    void aDictionarySnapshotWrittenBeforeTheColumnsWereAddedStillRestores()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir, FOUR))
        {
            append(journal, 1, 100, "NL", "c1", 1000, 1, null, 0, -1);
        }
        final JournalDirectory six = JournalDirectory.openOrCreate(dir, SIX);
        try (StringDictionaries strings = StringDictionaries.open(six))
        {
            assertTrue(strings.snapshotStatus().startsWith("at offset "), strings.snapshotStatus());
            assertEquals("NL", strings.dictionary(COUNTRY).name(0));
            assertEquals("web", strings.dictionary(CHANNEL).name(0));
        }
        try (EventJournal journal = EventJournal.openOrCreate(dir, SIX))
        {
            append(journal, 2, 200, "FR", "c2", 2000, 2, "pos", 10, -1);
        }
        try (StringDictionaries strings = StringDictionaries.open(JournalDirectory.open(dir)))
        {
            assertTrue(strings.snapshotStatus().startsWith("at offset "), strings.snapshotStatus());
            assertEquals("pos", strings.dictionary(CHANNEL).name(1));
        }
        assertEquals(List.of("1,NL,c1,1000,1,web,50", "2,FR,c2,2000,2,pos,10"), read(JournalDirectory.open(dir)));
    }

    @Test
    void aHistoryBaseWrittenBeforeTheColumnsWereAddedStillRestores()
    {
        final long[] offsets = new long[4];
        try (EventJournal journal = EventJournal.openOrCreate(dir, FOUR))
        {
            offsets[0] = append(journal, 1, 100, "NL", "c1", 1000, 1, null, 0, -1);
            offsets[1] = append(journal, 2, 200, "FR", "c2", 2000, 2, null, 0, -1);
        }
        HistoryBase.advance(JournalDirectory.open(dir), offsets[1], List.of(new int[] {COUNTRY, FEE}), 0, null);
        try (EventJournal journal = EventJournal.openOrCreate(dir, SIX))
        {
            offsets[2] = append(journal, 3, 300, "DE", "c1", 3000, 1, "app", 25, -1);
            offsets[3] = append(journal, 4, 400, "NL", "c3", 4000, 1, "web", 75, -1);
        }
        final JournalDirectory six = JournalDirectory.open(dir);
        assertEquals(List.of("2,FR,c2,2000,2,web,50", "3,DE,c1,3000,1,app,25", "4,NL,c3,4000,1,web,75"), read(six));
        final KeyTuples tuples = KeyTuples.readBefore(six, new int[] {COUNTRY, FEE}, Long.MAX_VALUE);
        assertEquals(3, tuples.size(), "(NL,1) from the base, then (FR,2) and (DE,1); (NL,1) again is the first");
        // the base moves on over events of both generations, and its new one holds the added column's strings
        HistoryBase.advance(six, offsets[3], List.of(new int[] {COUNTRY, CHANNEL}), 0, null);
        assertEquals(List.of("4,NL,c3,4000,1,web,75"), read(JournalDirectory.open(dir)));
        try (StringDictionaries strings = StringDictionaries.open(JournalDirectory.open(dir)))
        {
            assertEquals("app", strings.dictionary(CHANNEL).name(1));
            assertEquals("DE", strings.dictionary(COUNTRY).name(2));
        }
    }

    @Test
    void aBaseMovedOnByAViewOpenedBeforeTheColumnsWereAddedHoldsThemAndThatViewReadsOn()
    {
        final JournalDirectory before = JournalDirectory.create(dir, FOUR);
        final long[] offsets = new long[3];
        try (EventJournal journal = EventJournal.open(before))
        {
            offsets[0] = append(journal, 1, 100, "NL", "c1", 1000, 1, null, 0, -1);
        }
        try (EventJournal journal = EventJournal.openOrCreate(dir, SIX))
        {
            offsets[1] = append(journal, 2, 200, "FR", "c2", 2000, 2, "app", 25, -1);
            offsets[2] = append(journal, 3, 300, "FR", "c2", 3000, 3, "app", 75, -1);
        }
        HistoryBase.advance(before, offsets[2], List.of(), 0, null); // as a retention of a pipeline opened before the change
        assertEquals(List.of("3,FR,c2,3000,3,app,75"), read(JournalDirectory.open(dir)));
        try (JournalReader stale = JournalReader.open(before);
             StringDictionaries staleStrings = StringDictionaries.open(before))
        {
            final List<String> seen = new ArrayList<>();
            stale.poll((EventViewConsumer)(offset, e) -> seen.add(staleStrings.dictionary(COUNTRY).name(e.stringId(COUNTRY))
                + "," + e.longColumn(AMOUNT)), 100);
            assertEquals(List.of("FR,3000"), seen);
        }
    }

    @Test
    void aDirectoryOpenedBeforeTheColumnsWereAddedAppendsWithThem()
    {
        final JournalDirectory before = JournalDirectory.create(dir, FOUR);
        JournalDirectory.openOrCreate(dir, SIX);
        try (EventJournal journal = EventJournal.open(before))
        {
            assertEquals(SIX, journal.schema());
            append(journal, 1, 100, "NL", "c1", 1000, 1, "app", 1, -1);
        }
        assertEquals(List.of("1,NL,c1,1000,1,app,1"), read(JournalDirectory.open(dir)));
        assertNull(JournalDirectory.open(dir).schemaHistory().get(0).at());
    }

    /** Append one event: of four columns if {@code channel} is null, else of six; with its line if {@code line} >= 0. */
    static long append(final EventJournal journal, final long id, final long time, final String country, final String card,
        final long amount, final long fee, final String channel, final long tip, final long line)
    {
        final EventRow row = journal.row().eventId(id).eventTime(time).setString(COUNTRY, journal.stringId(COUNTRY, country))
            .setString(CARD, journal.stringId(CARD, card)).setLong(AMOUNT, amount).setLong(FEE, fee);
        if (channel != null)
        {
            row.setString(CHANNEL, journal.stringId(CHANNEL, channel)).setLong(TIP, tip);
        }
        return line >= 0 ? journal.appendIngested(row, line, -1) : journal.append(row);
    }

    /** @return every event of a six-column journal as text, strings resolved. */
    static List<String> read(final JournalDirectory journal)
    {
        final List<String> rows = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(journal);
             StringDictionaries strings = StringDictionaries.open(journal))
        {
            reader.poll((EventViewConsumer)(offset, e) -> rows.add(e.eventId() + "," + strings.dictionary(COUNTRY).name(e.stringId(COUNTRY))
                + "," + strings.dictionary(CARD).name(e.stringId(CARD)) + "," + e.longColumn(AMOUNT) + "," + e.longColumn(FEE) + ","
                + strings.dictionary(CHANNEL).name(e.stringId(CHANNEL)) + "," + e.longColumn(TIP)), 1_000);
        }
        return rows;
    }

    private String marker() throws IOException
    {
        return Files.readString(dir.resolve(JournalDirectory.MARKER_FILE), StandardCharsets.UTF_8);
    }
}
