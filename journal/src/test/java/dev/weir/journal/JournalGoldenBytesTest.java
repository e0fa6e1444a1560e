package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import dev.weir.journal.codec.DocumentType;
import dev.weir.journal.codec.EventDecoder;
import dev.weir.journal.codec.EventEncoder;
import dev.weir.journal.codec.EventShape;
import dev.weir.journal.codec.Heartbeat;
import dev.weir.journal.codec.IngestStartDecoder;
import dev.weir.journal.codec.IngestStartEncoder;
import dev.weir.journal.codec.LateEventDecoder;
import dev.weir.journal.codec.LateEventEncoder;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.journal.codec.RejectedLineDecoder;
import dev.weir.journal.codec.RejectedLineEncoder;
import dev.weir.journal.codec.ResultBatchDecoder;
import dev.weir.journal.codec.ResultBatchEncoder;
import dev.weir.journal.codec.ResultDecoder;
import dev.weir.journal.codec.ResultEncoder;
import dev.weir.journal.codec.ResultFields;
import dev.weir.journal.codec.ResultKind;
import dev.weir.journal.codec.TableRowDecoder;
import dev.weir.journal.codec.TableRowEncoder;
import dev.weir.journal.retention.OutputHistory;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.test.golden.GoldenBytes;
import dev.weir.test.golden.GoldenBytes.Sample;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal module's formats byte for byte: each writer, fed fixed inputs (wall-clock fields and ids
 * injected or masked), writes the committed bytes of the version it stamps
 * ({@code src/test/resources/golden-bytes}), and today's readers read every committed version with the values
 * it was written from. The documents of the events and results queues are versioned by the journal marker's
 * version, which covers the queues as a whole. The refusal of a newer version of each format this module owns
 * is in {@link NewerFormatsTest}.
 */
class JournalGoldenBytesTest
{
    /** The id a golden marker carries in place of the random one. */
    static final String JOURNAL_ID = "00000000-0000-0000-0000-000000000000";
    static final JournalSchema COLUMNS = JournalSchema.parse("merchant:string,amount:decimal(2),channel:string,units:long");

    private static final int QUEUES = JournalDirectory.FORMAT_VERSION;

    private final GoldenBytes golden = GoldenBytes.ofThisModule();

    @TempDir
    Path dir;

    // ---- journal marker

    @Test
    void journalMarker()
    {
        // this build creates journals of batched documents (version 5): the markers of versions 2 to 4 are read below
        golden.check("journal-marker-batched", JournalDirectory.FORMAT_VERSION_BATCHED, List.of(
            new Sample("default journal", marker(JournalDirectory.create(dir.resolve("a")))),
            new Sample("journal of " + COLUMNS + ", hourly", marker(JournalDirectory.create(dir.resolve("b"), COLUMNS, JournalRollCycle.HOURLY)))));
        for (final Map.Entry<Integer, List<byte[]>> version : golden.versions("journal-marker").headMap(JournalDirectory.FORMAT_VERSION_ADDED_COLUMNS).entrySet())
        {
            final JournalDirectory plain = withMarker(dir.resolve("read-a-" + version.getKey()), version.getValue().get(0));
            assertEquals(JournalSchema.DEFAULT, plain.schema());
            assertEquals(JournalRollCycle.DAILY, plain.rollCycle());
            assertEquals(JOURNAL_ID, plain.id());
            final JournalDirectory columns = withMarker(dir.resolve("read-b-" + version.getKey()), version.getValue().get(1));
            assertEquals(COLUMNS, columns.schema());
            assertEquals(JournalRollCycle.HOURLY, columns.rollCycle());
        }
    }

    /** The columns {@link #COLUMNS} gains, generation by generation, in the golden marker of a journal that gained columns. */
    static final List<JournalSchema> GAINED = List.of(JournalSchema.parse(COLUMNS + ",region:string=eu,fee:decimal(2)=0"),
        JournalSchema.parse(COLUMNS + ",region:string=eu,fee:decimal(2)=0,tip:long=7"));
    /** The times a golden marker records for its generations 2 and 3, in place of the wall clock's. */
    static final List<Instant> GAINED_AT = List.of(Instant.parse("2026-12-01T18:20:03.123Z"), Instant.parse("2026-12-02T04:00:00Z"));

    @Test
    void journalMarkerOfAJournalThatGainedColumns()
    {
        final Path root = dir.resolve("gained");
        JournalDirectory.create(root, COLUMNS, JournalRollCycle.HOURLY);
        for (final JournalSchema next : GAINED)
        {
            JournalDirectory.openOrCreate(root, next);
        }
        final JournalDirectory gained = JournalDirectory.open(root);
        String text = new String(marker(gained), StandardCharsets.UTF_8);
        for (int g = 0; g < GAINED_AT.size(); g++)
        {
            final Instant at = gained.schemaHistory().get(g + 1).at();
            text = text.replace(" at=" + at + " ", " at=" + GAINED_AT.get(g) + " ");
        }
        golden.check("journal-marker-batched-gained", JournalDirectory.FORMAT_VERSION_BATCHED, List.of(new Sample("journal of " + COLUMNS
            + ", hourly, gained region:string=eu,fee:decimal(2)=0 at " + GAINED_AT.get(0) + ", then tip:long=7 at " + GAINED_AT.get(1),
            text.getBytes(StandardCharsets.UTF_8))));
        for (final Map.Entry<Integer, List<byte[]>> version
            : golden.versions("journal-marker").subMap(JournalDirectory.FORMAT_VERSION_ADDED_COLUMNS, JournalDirectory.FORMAT_VERSION_TABLES).entrySet())
        {
            final JournalDirectory read = withMarker(dir.resolve("read-gained-" + version.getKey()), version.getValue().get(0));
            assertEquals(JOURNAL_ID, read.id());
            assertEquals(JournalRollCycle.HOURLY, read.rollCycle());
            assertEquals(GAINED.get(1).toString(), read.schema().toString());
            assertEquals(3, read.schema().generation());
            final List<JournalDirectory.Generation> history = read.schemaHistory();
            assertEquals(3, history.size());
            assertEquals(COLUMNS.toString(), history.get(0).schema().toString());
            assertNull(history.get(0).at());
            for (int g = 0; g < GAINED.size(); g++)
            {
                assertEquals(List.of(g + 2, GAINED.get(g).toString(), GAINED_AT.get(g)),
                    List.of(history.get(g + 1).number(), history.get(g + 1).schema().toString(), history.get(g + 1).at()));
            }
            assertEquals(List.of("tip"), history.get(2).added().stream().map(JournalSchema.Column::name).toList());
        }
    }

    /** The golden tables: one key column with a default, and a composite key. */
    static final TableDefinition CARDS = TableDefinition.parse("cards", "card", "card:string,home:string,limit:decimal(2)=0,visits:long");
    static final TableDefinition FX = TableDefinition.parse("fx", "base,quote", "base:string,quote:string,rate:decimal(6)");

    /**
     * The marker of a journal with tables (version 4): made by a table's ingest (events pending); the journal of
     * {@link #COLUMNS} that gained columns, then two tables; and one made by a table's ingest whose events' columns an
     * event ingest fixed.
     */
    @Test
    void journalMarkerOfAJournalWithTables() throws IOException
    {
        final JournalDirectory pending = JournalDirectory.openOrCreateForTable(dir.resolve("pending"), CARDS, null);
        final Path gainedRoot = dir.resolve("gained");
        Files.createDirectories(gainedRoot);
        Files.write(gainedRoot.resolve(JournalDirectory.MARKER_FILE), golden.versions("journal-marker").get(JournalDirectory.FORMAT_VERSION_ADDED_COLUMNS).get(0));
        JournalDirectory.openOrCreateForTable(gainedRoot, CARDS, null);
        final JournalDirectory gained = JournalDirectory.openOrCreateForTable(gainedRoot, FX, null);
        JournalDirectory.openOrCreateForTable(dir.resolve("fixed"), FX, JournalRollCycle.HOURLY);
        final JournalDirectory fixed = JournalDirectory.openOrCreate(dir.resolve("fixed"), COLUMNS);
        golden.check("journal-marker-batched-tables", JournalDirectory.FORMAT_VERSION_BATCHED, List.of(
            new Sample("made by an ingest of table " + CARDS.text() + ", events pending", marker(pending)),
            new Sample("made by an ingest of table " + FX.text() + ", hourly, then events of " + COLUMNS, marker(fixed))));
        // a journal of version 3 that gains tables is still one of single documents: version 4, as before
        assertArrayEquals(golden.versions("journal-marker").get(JournalDirectory.FORMAT_VERSION_TABLES).get(1), marker(gained));
        for (final Map.Entry<Integer, List<byte[]>> version : golden.versions("journal-marker").tailMap(JournalDirectory.FORMAT_VERSION_TABLES).entrySet())
        {
            final JournalDirectory readPending = withMarker(dir.resolve("read-pending-" + version.getKey()), version.getValue().get(0));
            assertEquals(List.of(true, JournalSchema.DEFAULT, List.of(CARDS), JOURNAL_ID, 4), List.of(readPending.eventsPending(), readPending.schema(),
                readPending.tables(), readPending.id(), readPending.formatVersion()));
            final JournalDirectory readGained = withMarker(dir.resolve("read-gained-" + version.getKey()), version.getValue().get(1));
            assertEquals(List.of(false, GAINED.get(1).toString(), 3, List.of(CARDS, FX), JournalRollCycle.HOURLY), List.of(readGained.eventsPending(),
                readGained.schema().toString(), readGained.schema().generation(), readGained.tables(), readGained.rollCycle()));
            assertEquals(GAINED_AT.get(1), readGained.schemaHistory().get(2).at());
            final JournalDirectory readFixed = withMarker(dir.resolve("read-fixed-" + version.getKey()), version.getValue().get(2));
            assertEquals(List.of(false, COLUMNS, List.of(FX), JournalRollCycle.HOURLY), List.of(readFixed.eventsPending(), readFixed.schema(),
                readFixed.tables(), readFixed.rollCycle()));
        }
    }

    /**
     * The journals of versions 2 and 3 read as before and stay byte for byte as they are: opened, opened with their
     * own columns, and appended to (an event, a heartbeat) and closed.
     */
    @Test
    void journalsOfVersions2And3StayByteForByte() throws IOException
    {
        for (final Map.Entry<Integer, List<byte[]>> version : golden.versions("journal-marker").headMap(JournalDirectory.FORMAT_VERSION_TABLES).entrySet())
        {
            final List<byte[]> markers = version.getValue();
            for (int m = 0; m < markers.size(); m++)
            {
                final Path root = dir.resolve("v" + version.getKey() + "-" + m);
                final JournalDirectory read = withMarker(root, markers.get(m));
                assertEquals(List.of(version.getKey(), List.of(), false), List.of(read.formatVersion(), read.tables(), read.eventsPending()));
                JournalDirectory.openOrCreate(root, read.schema(), read.rollCycle());
                JournalDirectory.openOrCreate(root, null);
                try (EventJournal journal = EventJournal.open(JournalDirectory.open(root)))
                {
                    journal.appendHeartbeat(1);
                    journal.appendIngestStart("file:/x.csv@1", 0);
                }
                assertArrayEquals(markers.get(m), Files.readAllBytes(root.resolve(JournalDirectory.MARKER_FILE)), "version " + version.getKey()
                    + ", marker " + m);
            }
        }
    }

    private static byte[] marker(final JournalDirectory journal)
    {
        try
        {
            final String text = Files.readString(journal.root().resolve(JournalDirectory.MARKER_FILE), StandardCharsets.UTF_8);
            return text.replace("id=" + journal.id() + "\n", "id=" + JOURNAL_ID + "\n").getBytes(StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    /** A directory whose only file is a marker of these bytes (opening a journal reads no queue). */
    static JournalDirectory withMarker(final Path root, final byte[] marker)
    {
        try
        {
            Files.createDirectories(root);
            Files.write(root.resolve(JournalDirectory.MARKER_FILE), marker);
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
        return JournalDirectory.open(root);
    }

    /** A journal directory whose id is {@link #JOURNAL_ID}, default schema. */
    static JournalDirectory goldenJournal(final Path root)
    {
        return withMarker(root, ("format=weir-journal\nversion=" + JournalDirectory.FORMAT_VERSION + "\nid=" + JOURNAL_ID + "\n")
            .getBytes(StandardCharsets.UTF_8));
    }

    // ---- documents of the events queue

    @Test
    void eventDocuments()
    {
        final EventShape columns = EventShape.of(COLUMNS);
        golden.check("event-document", QUEUES, List.of(
            new Sample("EVENT, default shape: id 7, time 1000, key id 3, value -5", document(out ->
                new EventEncoder().wrap(out, false).eventId(7).eventTime(1_000).value(-5).keyId(3))),
            new Sample("EVENT_NEW_KEY, default shape: id 8, time 2000, key id 4 'k-4', value Long.MAX_VALUE, line 12", document(out ->
                new EventEncoder().wrap(out, true).eventId(8).eventTime(2_000).value(Long.MAX_VALUE).keyId(4).key("k-4").line(12))),
            new Sample("EVENT, " + COLUMNS + ": id 9, time 3000, merchant 1, amount 1234, channel 0, units 5", document(out ->
                new EventEncoder(columns).wrap(out, false).eventId(9).eventTime(3_000)
                    .stringId(0, 1).longColumn(1, 1_234).stringId(2, 0).longColumn(3, 5))),
            new Sample("EVENT_NEW_KEY, " + COLUMNS + ": id 10, time 4000, merchant 2 'acme', amount -1, channel 1 'web', units 0, line 13,"
                + " unterminated 40", document(out ->
                new EventEncoder(columns).wrap(out, true).eventId(10).eventTime(4_000)
                    .stringId(0, 2).longColumn(1, -1).stringId(2, 1).longColumn(3, 0).text("acme").text("web").line(13).unterminatedLength(40)))));
        for (final List<byte[]> records : golden.versions("event-document").values())
        {
            final EventDecoder plain = new EventDecoder();
            assertTrue(plain.wrap(Bytes.wrapForRead(records.get(0))));
            assertEquals(List.of(7L, 1_000L, 3L, -5L, -1L), List.of(plain.eventId(), plain.eventTime(), (long)plain.keyId(), plain.value(), plain.line()));
            assertFalse(plain.hasKey());
            assertTrue(plain.wrap(Bytes.wrapForRead(records.get(1))));
            assertEquals(List.of(8L, 2_000L, 4L, Long.MAX_VALUE, 12L), List.of(plain.eventId(), plain.eventTime(), (long)plain.keyId(), plain.value(), plain.line()));
            assertEquals("k-4", plain.key());
            final EventDecoder decoder = new EventDecoder(columns);
            assertTrue(decoder.wrap(Bytes.wrapForRead(records.get(2))));
            assertEquals(List.of(9L, 3_000L, 1L, 1_234L, 0L, 5L), List.of(decoder.eventId(), decoder.eventTime(), (long)decoder.stringId(0),
                decoder.longColumn(1), (long)decoder.stringId(2), decoder.longColumn(3)));
            assertTrue(decoder.wrap(Bytes.wrapForRead(records.get(3))));
            decoder.newStrings((column, id) -> false);
            assertEquals(List.of(10L, 4_000L, 2L, -1L, 1L, 0L, 13L, 40L), List.of(decoder.eventId(), decoder.eventTime(), (long)decoder.stringId(0),
                decoder.longColumn(1), (long)decoder.stringId(2), decoder.longColumn(3), decoder.line(), decoder.unterminatedLength()));
            assertEquals(List.of("acme", "web"), List.of(decoder.text(0), decoder.text(2)));
        }
    }

    /** The columns of the golden events of a journal that gained columns: four, then two added (generation 2). */
    static final JournalSchema FOUR = JournalSchema.parse("country:string,card:string,amount:decimal(2),fee:long");
    static final JournalSchema SIX = FOUR.extend(JournalSchema.parse(FOUR + ",channel:string=web,tip:decimal(2)=0.5"));

    /**
     * The event documents of a journal that gained columns ({@link DocumentType#EVENT_EXTENDED},
     * {@link DocumentType#EVENT_EXTENDED_NEW_KEY}), which only a marker of version 3 allows: named by that version.
     */
    @Test
    void eventDocumentsOfAJournalThatGainedColumns()
    {
        final EventShape six = EventShape.of(SIX);
        golden.check("event-document-extended", JournalDirectory.FORMAT_VERSION_ADDED_COLUMNS, List.of(
            new Sample("EVENT_EXTENDED, " + SIX + ": id 5, time 6, country 2, card 3, amount -100, fee 9, channel 0, tip 25", document(out ->
                new EventEncoder(six).wrap(out, false).eventId(5).eventTime(6).stringId(0, 2).stringId(1, 3).longColumn(2, -100)
                    .longColumn(3, 9).stringId(4, 0).longColumn(5, 25))),
            new Sample("EVENT_EXTENDED_NEW_KEY, " + SIX + ": id 7, time 8, country 0, card 3 'c', amount 1234, fee -5, channel 1 'app',"
                + " tip 99, line 42", document(out ->
                new EventEncoder(six).wrap(out, true).eventId(7).eventTime(8).stringId(0, 0).stringId(1, 3).longColumn(2, 1_234)
                    .longColumn(3, -5).stringId(4, 1).longColumn(5, 99).text("c").text("app").line(42)))));
        for (final List<byte[]> records : golden.versions("event-document-extended").values())
        {
            final EventDecoder decoder = new EventDecoder(six);
            assertTrue(decoder.wrap(Bytes.wrapForRead(records.get(0))));
            assertEquals(DocumentType.EVENT_EXTENDED, records.get(0)[0]);
            assertEquals(List.of(2L, 5L, 6L, 2L, 3L, -100L, 9L, 0L, 25L), List.of((long)decoder.generation(), decoder.eventId(), decoder.eventTime(),
                (long)decoder.stringId(0), (long)decoder.stringId(1), decoder.longColumn(2), decoder.longColumn(3), (long)decoder.stringId(4),
                decoder.longColumn(5)));
            assertFalse(decoder.hasKey());
            assertTrue(decoder.wrap(Bytes.wrapForRead(records.get(1))));
            assertEquals(DocumentType.EVENT_EXTENDED_NEW_KEY, records.get(1)[0]);
            assertEquals(List.of(2L, 7L, 8L, 0L, 3L, 1_234L, -5L, 1L, 99L), List.of((long)decoder.generation(), decoder.eventId(), decoder.eventTime(),
                (long)decoder.stringId(0), (long)decoder.stringId(1), decoder.longColumn(2), decoder.longColumn(3), (long)decoder.stringId(4),
                decoder.longColumn(5)));
            assertEquals(1L << 1 | 1L << 4, decoder.newStrings((column, id) -> column == 0));
            assertEquals(List.of("c", "app", 42L), List.of(decoder.text(1), decoder.text(4), decoder.line()));
        }
    }

    /** The table rows of a journal with tables: a marker of version 4 allows them, so they are named by that version. */
    @Test
    void tableRowDocuments()
    {
        golden.check("table-row", JournalDirectory.FORMAT_VERSION_TABLES, List.of(
            new Sample("cards 0: card 'c-1', home 'DE', limit 150000, visits 7, valid from 1764000000000, line 41", document(out ->
                new TableRowEncoder(0, CARDS).wrap(out, false, 1_764_000_000_000L).longColumn(2, 150_000).longColumn(3, 7).text("c-1").text("DE")
                    .line(41))),
            new Sample("fx 1: tombstone of base 'EUR', quote 'USD', valid from 5 (rate 0)", document(out ->
                new TableRowEncoder(1, FX).wrap(out, true, 5).longColumn(2, 0).text("EUR").text("USD"))),
            new Sample("cards 0: card '\u00e9' x 128 (256 bytes), home '\ud83d\udcb3', limit -1, visits Long.MAX_VALUE, valid from 0", document(out ->
                new TableRowEncoder(0, CARDS).wrap(out, false, 0).longColumn(2, -1).longColumn(3, Long.MAX_VALUE).text("\u00e9".repeat(128))
                    .text("\ud83d\udcb3")))));
        for (final List<byte[]> records : golden.versions("table-row").values())
        {
            final TableRowDecoder decoder = new TableRowDecoder(List.of(CARDS, FX));
            assertTrue(decoder.wrap(Bytes.wrapForRead(records.get(0))));
            assertEquals(List.of(0, false, 1_764_000_000_000L, "c-1", "DE", 150_000L, 7L, 41L), List.of(decoder.table(), decoder.tombstone(),
                decoder.validFrom(), decoder.string(0).toString(), decoder.string(1).toString(), decoder.longColumn(2), decoder.longColumn(3), decoder.line()));
            assertTrue(decoder.wrap(Bytes.wrapForRead(records.get(1))));
            assertEquals(List.of(1, true, 5L, "EUR", "USD", 0L, -1L), List.of(decoder.table(), decoder.tombstone(), decoder.validFrom(),
                decoder.string(0).toString(), decoder.string(1).toString(), decoder.longColumn(2), decoder.line()));
            assertTrue(decoder.wrap(Bytes.wrapForRead(records.get(2))));
            assertEquals(List.of("\u00e9".repeat(128), "\ud83d\udcb3", -1L, Long.MAX_VALUE), List.of(decoder.string(0).toString(),
                decoder.string(1).toString(), decoder.longColumn(2), decoder.longColumn(3)));
        }
    }

    @Test
    void ingestStart()
    {
        golden.check("ingest-start", IngestStartEncoder.VERSION, List.of(
            new Sample("source 'file:/in.csv@1', first line 1", document(out -> new IngestStartEncoder().wrap(out).firstLine(1).source("file:/in.csv@1")))));
        final Map<Integer, List<byte[]>> versions = golden.versions("ingest-start");
        assertTrue(versions.containsKey(0), "the ingest start of before lines were tagged (no byte after the source) is committed");
        for (final Map.Entry<Integer, List<byte[]>> version : versions.entrySet())
        {
            final IngestStartDecoder decoder = new IngestStartDecoder();
            assertTrue(decoder.wrap(Bytes.wrapForRead(version.getValue().get(0))));
            assertEquals(1, decoder.firstLine());
            assertEquals("file:/in.csv@1", decoder.source());
            assertEquals(version.getKey().intValue(), decoder.version());
            assertEquals(version.getKey() >= 1, decoder.linesTagged());
        }
    }

    @Test
    void rejectedLine()
    {
        golden.check("rejected-line", QUEUES, List.of(
            new Sample("line 5, reason 'bad value', content 'x,y,z'", document(out ->
                new RejectedLineEncoder().wrap(out).line(5).reason("bad value").content("x,y,z").unterminatedLength(-1))),
            new Sample("line 6, reason 'too few fields', content 'a', unterminated 1", document(out ->
                new RejectedLineEncoder().wrap(out).line(6).reason("too few fields").content("a").unterminatedLength(1)))));
        for (final List<byte[]> records : golden.versions("rejected-line").values())
        {
            final RejectedLineDecoder decoder = new RejectedLineDecoder();
            assertTrue(decoder.wrap(Bytes.wrapForRead(records.get(0))));
            assertEquals(List.of(5L, "bad value", "x,y,z", -1L), List.of(decoder.line(), decoder.reason(), decoder.content(), decoder.unterminatedLength()));
            assertTrue(decoder.wrap(Bytes.wrapForRead(records.get(1))));
            assertEquals(List.of(6L, "too few fields", "a", 1L), List.of(decoder.line(), decoder.reason(), decoder.content(), decoder.unterminatedLength()));
        }
    }

    @Test
    void heartbeat()
    {
        golden.check("heartbeat", QUEUES, List.of(
            new Sample("event time 60000, wall clock 1764000000000 (injected)", document(out -> Heartbeat.write(out, 60_000, 1_764_000_000_000L)))));
        for (final List<byte[]> records : golden.versions("heartbeat").values())
        {
            final Bytes<?> in = Bytes.wrapForRead(records.get(0));
            assertTrue(Heartbeat.is(in));
            assertEquals(60_000, Heartbeat.eventTime(in));
            assertEquals(1_764_000_000_000L, Heartbeat.wallClock(in));
        }
    }

    // ---- documents of the results queue

    /** A result of every kind and aggregate count, for the output documents' fixed inputs. */
    private record Result(ResultKind kind, long windowStart, int keyId, int version, long sourceOffset, long... aggregates)
        implements ResultFields
    {
        @Override
        public long windowEnd()
        {
            return windowStart + 10_000;
        }

        @Override
        public long count()
        {
            return 3;
        }

        @Override
        public long sum()
        {
            return -42;
        }

        @Override
        public long min()
        {
            return Long.MIN_VALUE;
        }

        @Override
        public long max()
        {
            return Long.MAX_VALUE;
        }

        @Override
        public long aggregate()
        {
            return aggregates.length == 0 ? 0 : aggregates[0];
        }

        @Override
        public int aggregateCount()
        {
            return aggregates.length;
        }

        @Override
        public long aggregate(final int index)
        {
            return aggregates[index];
        }
    }

    private static final List<Result> RESULTS = List.of(
        new Result(ResultKind.FINAL, 0, 1, 0, 17),
        new Result(ResultKind.FINAL, 10_000, 2, 1, 18, 99),
        new Result(ResultKind.FINAL, -10_000, 3, 2, 19, 1, -2, Long.MAX_VALUE),
        new Result(ResultKind.UPDATE, 20_000, 4, 0, 20),
        new Result(ResultKind.EARLY, 30_000, 5, 0, 21, 7));

    @Test
    void outputDocuments()
    {
        final List<Sample> samples = new ArrayList<>();
        for (final Result r : RESULTS)
        {
            samples.add(new Sample(r.kind() + ": window " + r.windowStart() + ", key id " + r.keyId() + ", version " + r.version() + ", offset "
                + r.sourceOffset() + ", count 3, sum -42, min and max of long, aggregates " + java.util.Arrays.toString(r.aggregates()),
                document(out -> new ResultEncoder().wrap(out, r.aggregateCount()).copy(r))));
        }
        samples.add(new Sample("LATE_EVENT: id 11, time 500, value 6, offset 22, key id 6", document(out ->
            new LateEventEncoder().wrap(out).eventId(11).eventTime(500).value(6).offset(22).keyId(6))));
        golden.check("output-document", QUEUES, samples);
        for (final List<byte[]> records : golden.versions("output-document").values())
        {
            final OutputDecoder decoder = new OutputDecoder();
            for (int i = 0; i < RESULTS.size(); i++)
            {
                final Result r = RESULTS.get(i);
                assertEquals(r.kind().documentType(), decoder.wrap(Bytes.wrapForRead(records.get(i))));
                final ResultDecoder d = decoder.result();
                assertEquals(List.of(r.windowStart(), r.windowEnd(), r.count(), r.sum(), r.min(), r.max(), r.sourceOffset(), (long)r.keyId(),
                    (long)r.version()), List.of(d.windowStart(), d.windowEnd(), d.count(), d.sum(), d.min(), d.max(), d.sourceOffset(),
                    (long)d.keyId(), (long)d.version()));
                assertEquals(r.kind(), d.kind());
                assertEquals(r.aggregateCount(), d.aggregateCount());
                for (int a = 0; a < r.aggregateCount(); a++)
                {
                    assertEquals(r.aggregate(a), d.aggregate(a));
                }
            }
            assertEquals(DocumentType.LATE_EVENT, decoder.wrap(Bytes.wrapForRead(records.get(RESULTS.size()))));
            final LateEventDecoder late = decoder.late();
            assertEquals(List.of(11L, 500L, 6L, 22L, 6L), List.of(late.eventId(), late.eventTime(), late.value(), late.offset(), (long)late.keyId()));
        }
    }

    /**
     * A {@link DocumentType#RESULT_BATCH} (journal marker version {@value JournalDirectory#FORMAT_VERSION_BATCHED}): the five
     * results and the late event of {@link #outputDocuments()} in one document, then two outputs, each in the bytes of its
     * single document behind its length; read back output by output, slot by slot.
     */
    @Test
    void outputBatchDocuments()
    {
        final List<Sample> samples = new ArrayList<>();
        try (ResultBatchEncoder batch = new ResultBatchEncoder())
        {
            for (final Result r : RESULTS)
            {
                batch.result(r.aggregateCount()).copy(r);
            }
            batch.late().eventId(11).eventTime(500).value(6).offset(22).keyId(6);
            samples.add(new Sample("RESULT_BATCH of 6: the five results and the late event of output-document", batch.document().toByteArray()));
            batch.clear();
            batch.late().eventId(12).eventTime(600).value(-1).offset(23).keyId(7);
            batch.result(0).copy(RESULTS.get(0));
            samples.add(new Sample("RESULT_BATCH of 2: late event id 12, time 600, value -1, offset 23, key id 7; the first result", batch.document()
                .toByteArray()));
        }
        golden.check("output-batch-document", JournalDirectory.FORMAT_VERSION_BATCHED, samples);
        for (final List<byte[]> records : golden.versions("output-batch-document").values())
        {
            final ResultBatchDecoder entries = new ResultBatchDecoder();
            final OutputDecoder decoder = new OutputDecoder();
            final Bytes<?> first = Bytes.wrapForRead(records.get(0));
            assertEquals(RESULTS.size() + 1, entries.wrap(first));
            for (final Result r : RESULTS)
            {
                assertEquals(r.kind().documentType(), entries.next(decoder));
                final ResultDecoder d = decoder.result();
                assertEquals(List.of(r.windowStart(), r.windowEnd(), r.count(), r.sum(), r.min(), r.max(), r.sourceOffset(), (long)r.keyId(),
                    (long)r.version()), List.of(d.windowStart(), d.windowEnd(), d.count(), d.sum(), d.min(), d.max(), d.sourceOffset(),
                    (long)d.keyId(), (long)d.version()));
                assertEquals(r.aggregateCount(), d.aggregateCount());
                for (int a = 0; a < r.aggregateCount(); a++)
                {
                    assertEquals(r.aggregate(a), d.aggregate(a));
                }
            }
            assertEquals(DocumentType.LATE_EVENT, entries.next(decoder));
            assertEquals(List.of(11L, 500L, 6L, 22L, 6L), List.of(decoder.late().eventId(), decoder.late().eventTime(), decoder.late().value(),
                decoder.late().offset(), (long)decoder.late().keyId()));
            assertEquals(0, entries.next(decoder), "six outputs, no more");
            final Bytes<?> second = Bytes.wrapForRead(records.get(1));
            assertEquals(2, entries.wrap(second));
            assertEquals(true, entries.skipTo(1));
            assertEquals(DocumentType.RESULT, entries.next(decoder), "slot 1, past slot 0");
            assertEquals(17, decoder.result().sourceOffset());
        }
    }

    // ---- files beside the queues

    /** The dictionary snapshot of the golden inputs: two string columns of a journal of {@link #COLUMNS}. */
    static DictionarySnapshot snapshot()
    {
        return new DictionarySnapshot(1_234, 0x5eed, true, "boot-id-golden", new long[] {10, 1, 2, 3, 100, 200, 101, 199},
            new int[] {0, 2}, new int[][] {{0, 1}, {0}}, new String[][] {{"acme", "zeta"}, {"web"}});
    }

    @Test
    void dictionarySnapshot() throws Exception
    {
        final Path file = dir.resolve(DictionarySnapshot.FILE);
        snapshot().write(file, COLUMNS.toString());
        golden.check("dictionary-snapshot", DictionarySnapshot.VERSION, List.of(new Sample("covered 1234, crc 0x5eed, synced, boot id"
            + " 'boot-id-golden', counts 10 1 2 3 100 200 101 199, merchant {0 acme, 1 zeta}, channel {0 web}", Files.readAllBytes(file))));
        for (final Map.Entry<Integer, List<byte[]>> version : golden.versions("dictionary-snapshot").entrySet())
        {
            final Path copy = Files.write(dir.resolve("read-" + version.getKey()), version.getValue().get(0));
            final DictionarySnapshot read = DictionarySnapshot.read(copy, COLUMNS.toString());
            final DictionarySnapshot expected = snapshot();
            assertEquals(List.of(expected.covered, (long)expected.coveredCrc, expected.synced, expected.bootId),
                List.of(read.covered, (long)read.coveredCrc, read.synced, read.bootId));
            assertArrayEquals(expected.counts, read.counts);
            assertArrayEquals(expected.columns, read.columns);
            assertArrayEquals(expected.ids, read.ids);
            assertArrayEquals(expected.texts, read.texts);
        }
    }

    /** The table rows the golden history base holds: a row of cards and a tombstone of fx, with their offsets. */
    static final long[] GOLDEN_ROW_OFFSETS = {4_000, 4_500};

    static List<byte[]> goldenRowDocuments()
    {
        return List.of(document(out -> new TableRowEncoder(0, CARDS).wrap(out, false, 77).longColumn(2, 500).longColumn(3, 1).text("c").text("DE").line(3)),
            document(out -> new TableRowEncoder(1, FX).wrap(out, true, 88).longColumn(2, 0).text("EUR").text("USD")));
    }

    /** The history base of the golden inputs: every section filled, of a journal {@link #goldenJournal}. */
    static HistoryBase goldenHistoryBase()
    {
        return goldenHistoryBase(true);
    }

    /** @param rows false for the same base without table rows (a journal that never held a table). */
    static HistoryBase goldenHistoryBase(final boolean rows)
    {
        final TreeMap<Integer, TreeMap<Integer, String>> dictionaries = new TreeMap<>(Map.of(0, new TreeMap<>(Map.of(0, "a", 1, "b"))));
        final LinkedHashMap<String, long[]> sources = new LinkedHashMap<>();
        sources.put("file:/in.csv@1", new long[] {41, -1, -1});
        sources.put("file:/more.csv@2", new long[] {7, 6, 120});
        return new HistoryBase(JOURNAL_ID, JournalSchema.DEFAULT.toString(), 5_000, 4_999, 123_456, 40, 65_536, "/archive/events",
            new long[] {35, 2, 2, 1, 0, 4_999, 1, 4_998}, dictionaries, sources, "file:/more.csv@2", 7, true,
            List.of(new int[] {0}), List.of(new long[] {0, 1}), rows ? GOLDEN_ROW_OFFSETS.clone() : new long[0],
            rows ? goldenRowDocuments() : List.of(), rows ? GOLDEN_ROW_OFFSETS.length : 0);
    }

    @Test
    void aHistoryBaseWithoutTableRowsIsWrittenAsVersion1ByteForByte() throws IOException
    {
        // a journal that never held a table stays readable by a Weir before tables after retention
        final Path file = dir.resolve("without-rows");
        goldenHistoryBase(false).write(file);
        assertArrayEquals(golden.versions("history-base").get(HistoryBase.VERSION_WITHOUT_TABLE_ROWS).get(0), Files.readAllBytes(file));
    }

    @Test
    void historyBase() throws IOException
    {
        final Path file = dir.resolve(HistoryBase.FILE);
        goldenHistoryBase().write(file);
        golden.check("history-base", HistoryBase.VERSION, List.of(new Sample("journal " + JOURNAL_ID + ", first offset 5000, archived,"
            + " two sources, one open, key tuples of column 0, table rows at 4000 (cards) and 4500 (an fx tombstone)", Files.readAllBytes(file))));
        assertTrue(golden.versions("history-base").containsKey(HistoryBase.VERSION_WITHOUT_TABLE_ROWS), "the base of before table rows is committed");
        for (final Map.Entry<Integer, List<byte[]>> version : golden.versions("history-base").entrySet())
        {
            final JournalDirectory journal = goldenJournal(dir.resolve("read-" + version.getKey()));
            Files.write(HistoryBase.file(journal), version.getValue().get(0));
            final HistoryBase read = HistoryBase.load(journal);
            final HistoryBase expected = goldenHistoryBase();
            assertEquals(List.of(expected.first, expected.lastRemoved, expected.maxRemovedEventTime, expected.removedDocuments, expected.removedBytes),
                List.of(read.first, read.lastRemoved, read.maxRemovedEventTime, read.removedDocuments, read.removedBytes));
            assertEquals(expected.archive, read.archive);
            assertArrayEquals(expected.counts, read.counts);
            assertEquals(expected.dictionaries, read.dictionaries);
            assertEquals(expected.sources.keySet(), read.sources.keySet());
            for (final String source : expected.sources.keySet())
            {
                assertArrayEquals(expected.sources.get(source), read.sources.get(source));
            }
            assertEquals(List.of(expected.openSource, expected.openNext, expected.openTagged), List.of(read.openSource, read.openNext, read.openTagged));
            assertArrayEquals(expected.tupleColumns.toArray(), read.tupleColumns.toArray());
            assertArrayEquals(expected.tupleComponents.toArray(), read.tupleComponents.toArray());
            final boolean rows = version.getKey() > HistoryBase.VERSION_WITHOUT_TABLE_ROWS;
            assertArrayEquals(rows ? GOLDEN_ROW_OFFSETS : new long[0], read.rowOffsets);
            assertArrayEquals(rows ? goldenRowDocuments().toArray() : new Object[0], read.rowDocuments.toArray());
            assertEquals(rows ? 2 : 0, HistoryBase.read(journal).orElseThrow().countsBefore().tableRows());
        }
    }

    static final OutputHistory OUTPUT_HISTORY = new OutputHistory(JOURNAL_ID, 300, 290, 280, 8_192, 40_000, Path.of("/archive/results"),
        Instant.parse("2026-12-01T18:20:03.123Z"));

    @Test
    void outputHistory() throws IOException
    {
        final JournalDirectory journal = goldenJournal(dir.resolve("written"));
        OUTPUT_HISTORY.write(journal);
        golden.check("output-history", OutputHistory.VERSION, List.of(new Sample(OUTPUT_HISTORY.toString(),
            Files.readAllBytes(journal.pipelineRoot().resolve(OutputHistory.FILE)))));
        for (final Map.Entry<Integer, List<byte[]>> version : golden.versions("output-history").entrySet())
        {
            final JournalDirectory read = goldenJournal(dir.resolve("read-" + version.getKey()));
            Files.write(read.pipelineRoot().resolve(OutputHistory.FILE), version.getValue().get(0));
            assertEquals(OUTPUT_HISTORY, OutputHistory.read(read).orElseThrow());
        }
    }

    @Test
    void deliveryPosition() throws IOException
    {
        final Path file = DeliveryPositions.register(dir, "weir_results", "jdbc:postgresql://127.0.0.1:5432/weir", 128_562_686_295_277_568L,
            1_764_613_203_123L);
        golden.check("delivery-position", DeliveryPositions.FORMAT_VERSION, List.of(new Sample("weir_results at"
            + " jdbc:postgresql://127.0.0.1:5432/weir, position 128562686295277568, updated 2026-12-01T18:20:03.123Z", Files.readAllBytes(file))));
        for (final Map.Entry<Integer, List<byte[]>> version : golden.versions("delivery-position").entrySet())
        {
            final Path copy = Files.write(dir.resolve("read-" + version.getKey() + DeliveryPositions.SUFFIX), version.getValue().get(0));
            final DeliveryPositions.DeliveryPosition read = DeliveryPositions.readFile(copy);
            assertNull(read.problem());
            assertEquals(List.of("weir_results", "jdbc:postgresql://127.0.0.1:5432/weir", 128_562_686_295_277_568L, Instant.ofEpochMilli(1_764_613_203_123L)),
                List.of(read.table(), read.target(), read.position(), read.updated()));
        }
    }

    /** @return the bytes {@code writer} writes from position 0 of a new buffer. */
    static byte[] document(final Consumer<Bytes<?>> writer)
    {
        final Bytes<?> out = Bytes.allocateElasticOnHeap(256);
        writer.accept(out);
        return out.toByteArray();
    }
}
