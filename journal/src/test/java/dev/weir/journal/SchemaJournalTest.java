package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/**
 * A journal of a six-column schema: its layout, round trips of whole events through {@link EventRow} and
 * {@link JournalReader#poll(EventViewConsumer, int)}, events defining several strings at once, the
 * per-column dictionaries rebuilt by a fresh open, the default-schema API refused, and the string rule.
 */
class SchemaJournalTest
{
    static final JournalSchema PAYMENTS =
        JournalSchema.parse("card:string,merchant:string,country:string,amount:decimal(2),fee:long,channel:string");
    static final int CARD = 0;
    static final int MERCHANT = 1;
    static final int COUNTRY = 2;
    static final int AMOUNT = 3;
    static final int FEE = 4;
    static final int CHANNEL = 5;

    @TempDir
    Path dir;

    /** One event as text. */
    record Payment(long id, long time, String card, String merchant, String country, long amount, long fee, String channel)
    {
    }

    @Test
    void theShapePutsLongsFirstThenStringIds()
    {
        final EventShape shape = EventShape.of(PAYMENTS);
        assertEquals(17, shape.offset(AMOUNT));
        assertEquals(25, shape.offset(FEE));
        assertEquals(33, shape.offset(CARD));
        assertEquals(37, shape.offset(MERCHANT));
        assertEquals(41, shape.offset(COUNTRY));
        assertEquals(45, shape.offset(CHANNEL));
        assertEquals(49, shape.length());
        assertEquals(CARD, shape.firstStringColumn());
        assertEquals(AMOUNT, shape.firstLongColumn());
        assertEquals(17, EventShape.DEFAULT.offset(1), "value");
        assertEquals(25, EventShape.DEFAULT.offset(0), "key_id");
        assertEquals(EventEncoder.LENGTH, EventShape.DEFAULT.length());
    }

    @Test
    void anEventDefiningThreeStringsAtOnceHasThemInSchemaOrderAfterItsFixedPart()
    {
        final EventShape shape = EventShape.of(PAYMENTS);
        final Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        new EventEncoder(shape).wrap(bytes, true).eventId(7).eventTime(8).longColumn(AMOUNT, 1234).longColumn(FEE, -5)
            .stringId(CARD, 3).stringId(MERCHANT, 0).stringId(COUNTRY, 9).stringId(CHANNEL, 1)
            .text("c\u00e9").text("IT").text("web").line(42).unterminatedLength(11);
        assertEquals(DocumentType.EVENT_NEW_KEY, bytes.readByte(0));
        assertEquals(1234, bytes.readLong(17));
        assertEquals(-5, bytes.readLong(25));
        assertEquals(3, bytes.readInt(33));
        assertEquals(1, bytes.readInt(45));
        final EventDecoder decoder = new EventDecoder(shape);
        assertTrue(decoder.wrap(bytes));
        assertThrows(IllegalStateException.class, decoder::line, "which strings follow is not known yet");
        // card 3 and country 9 and channel 1 are new; merchant 0 is not
        decoder.newStrings((column, id) -> column == MERCHANT);
        assertEquals("c\u00e9", decoder.text(CARD));
        assertNull(decoder.text(MERCHANT));
        assertEquals("IT", decoder.text(COUNTRY));
        assertEquals("web", decoder.text(CHANNEL));
        assertEquals(42, decoder.line());
        assertEquals(11, decoder.unterminatedLength());
        assertEquals(7, decoder.eventId());
        assertEquals(8, decoder.eventTime());
        assertEquals(1234, decoder.longColumn(AMOUNT));
        assertEquals(-5, decoder.longColumn(FEE));
        assertEquals(9, decoder.stringId(COUNTRY));
    }

    @Test
    void roundTripsWholeEventsAndRebuildsEveryDictionary()
    {
        final List<Payment> written = payments(3_000);
        final List<Long> offsets = new ArrayList<>();
        try (EventJournal journal = EventJournal.openOrCreate(dir, PAYMENTS))
        {
            assertEquals(PAYMENTS, journal.schema());
            // the first event defines every string column at once
            for (final Payment p : written)
            {
                offsets.add(append(journal, p, p.id() % 5 == 0 ? p.id() + 1 : -1, -1));
            }
            assertEquals(100, journal.dictionary(CARD).size());
            assertEquals(7, journal.dictionary(COUNTRY).size());
        }
        // a fresh reader sees every column of every event, in order, at its offset
        final JournalDirectory directory = JournalDirectory.open(dir);
        try (JournalReader reader = JournalReader.open(directory);
             StringDictionaries strings = StringDictionaries.open(directory))
        {
            final List<Payment> read = new ArrayList<>();
            final List<Long> readOffsets = new ArrayList<>();
            final EventViewConsumer consumer = (offset, e) ->
            {
                readOffsets.add(offset);
                read.add(new Payment(e.eventId(), e.eventTime(), strings.dictionary(CARD).name(e.stringId(CARD)),
                    strings.dictionary(MERCHANT).name(e.stringId(MERCHANT)), strings.dictionary(COUNTRY).name(e.stringId(COUNTRY)),
                    e.longColumn(AMOUNT), e.longColumn(FEE), strings.dictionary(CHANNEL).name(e.stringId(CHANNEL))));
            };
            while (reader.poll(consumer, 1000) > 0)
            {
                assertTrue(read.size() <= written.size());
            }
            assertEquals(written, read);
            assertEquals(offsets, readOffsets);
            assertEquals(offsets.get(offsets.size() - 1), reader.lastReadOffset());
        }
        // the dictionaries rebuilt by a fresh open equal those written, ids dense in order of first use
        try (StringDictionaries strings = StringDictionaries.open(directory);
             EventJournal reopened = EventJournal.open(directory))
        {
            for (final int column : new int[] {CARD, MERCHANT, COUNTRY, CHANNEL})
            {
                final List<String> firstUse = new ArrayList<>();
                for (final Payment p : written)
                {
                    final String text = text(p, column);
                    if (!firstUse.contains(text))
                    {
                        firstUse.add(text);
                    }
                }
                assertEquals(firstUse.size(), strings.dictionary(column).size(), PAYMENTS.column(column).name());
                assertEquals(firstUse.size(), reopened.dictionary(column).size());
                for (int id = 0; id < firstUse.size(); id++)
                {
                    assertEquals(firstUse.get(id), strings.dictionary(column).name(id));
                    assertEquals(id, reopened.stringId(column, firstUse.get(id)), "the reopened journal keeps the ids");
                }
            }
            assertThrows(IllegalArgumentException.class, () -> strings.dictionary(AMOUNT));
        }
    }

    @Test
    void theIngestLogReadsTheLineTrailersAfterTheStrings()
    {
        final int n = 3_000;
        final List<Long> expected = new ArrayList<>();
        try (EventJournal journal = EventJournal.openOrCreate(dir, PAYMENTS))
        {
            journal.appendIngestStart("payments.csv", 1);
            for (final Payment p : payments(n))
            {
                final long line = p.id() % 5 == 0 ? -1 : p.id() + 1;
                append(journal, p, line, p.id() == n - 1 ? 11 : -1);
                expected.add(line);
            }
        }
        final JournalDirectory directory = JournalDirectory.open(dir);
        final List<Long> lines = new ArrayList<>();
        final long[] unterminated = {-1, -1};
        IngestLog.scan(directory, new IngestConsumer()
        {
            @Override
            public void onIngestStart(final long offset, final String source, final long firstLine, final boolean linesTagged)
            {
            }

            @Override
            public void onRejected(final long offset, final long line, final String reason, final String content)
            {
            }

            @Override
            public void onEvent(final long offset, final long line)
            {
                lines.add(line);
            }

            @Override
            public void onUnterminated(final long offset, final long line, final long bytes)
            {
                unterminated[0] = line;
                unterminated[1] = bytes;
            }
        });
        assertEquals(expected, lines);
        assertArrayEquals(new long[] {n, 11}, unterminated);
        assertEquals(n + 1, IngestLog.nextLines(directory).get("payments.csv"));
    }

    @Test
    void idsInternedOutOfOrderAreDefinedByTheirFirstEvent()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir, PAYMENTS))
        {
            final int x = journal.stringId(MERCHANT, "x");
            final int y = journal.stringId(MERCHANT, "y");
            final int z = journal.stringId(MERCHANT, "z");
            final int card = journal.stringId(CARD, "c");
            final int it = journal.stringId(COUNTRY, "IT");
            final int web = journal.stringId(CHANNEL, "web");
            for (final int merchant : new int[] {z, x, z, y})
            {
                journal.append(journal.row().eventId(merchant).eventTime(1).setString(CARD, card).setString(MERCHANT, merchant)
                    .setString(COUNTRY, it).setLong(AMOUNT, 1).setLong(FEE, 2).setString(CHANNEL, web));
            }
        }
        try (StringDictionaries strings = StringDictionaries.open(JournalDirectory.open(dir)))
        {
            assertEquals("x", strings.dictionary(MERCHANT).name(0));
            assertEquals("y", strings.dictionary(MERCHANT).name(1));
            assertEquals("z", strings.dictionary(MERCHANT).name(2));
            assertEquals("web", strings.dictionary(CHANNEL).name(0));
        }
    }

    @Test
    void theFieldsPollHandsOverTheFirstStringAndTheFirstLongColumn()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir, PAYMENTS))
        {
            for (final Payment p : payments(50))
            {
                append(journal, p, -1, -1);
            }
        }
        final JournalDirectory directory = JournalDirectory.open(dir);
        try (JournalReader reader = JournalReader.open(directory); KeyDictionary keys = KeyDictionary.open(directory))
        {
            final List<Payment> expected = payments(50);
            final int[] n = {0};
            reader.poll((offset, eventId, eventTime, keyId, value) ->
            {
                final Payment p = expected.get(n[0]++);
                assertEquals(p.id(), eventId);
                assertEquals(p.card(), keys.name(keyId));
                assertEquals(p.amount(), value);
            }, 100);
            assertEquals(50, n[0]);
            assertEquals(CARD, keys.column());
        }
    }

    @Test
    void theViewPollReadsWhatTheFieldsPollReadsInADefaultJournal()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir))
        {
            DefaultJournalBytesTest.appendThroughTheKeyApi(journal);
        }
        final JournalDirectory directory = JournalDirectory.open(dir);
        try (JournalReader fields = JournalReader.open(directory); JournalReader views = JournalReader.open(directory))
        {
            final List<String> byFields = new ArrayList<>();
            final List<String> byViews = new ArrayList<>();
            while (fields.poll((offset, id, time, key, value) -> byFields.add(offset + " " + id + " " + time + " " + key + " " + value), 333) > 0)
            {
                assertTrue(byFields.size() <= 2_000);
            }
            while (views.poll((offset, e) -> byViews.add(offset + " " + e.eventId() + " " + e.eventTime() + " " + e.stringId(0) + " "
                + e.longColumn(1)), 333) > 0)
            {
                assertTrue(byViews.size() <= 2_000);
            }
            assertEquals(2_000 - 4, byFields.size());
            assertEquals(byFields, byViews);
            assertEquals(4, views.rejectedRead());
            assertEquals(fields.rejectedRead(), views.rejectedRead());
            assertEquals(fields.lastReadOffset(), views.lastReadOffset());
        }
    }

    @Test
    void refusesTheDefaultSchemasApiAndIncompleteRows()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir, PAYMENTS))
        {
            assertThrows(IllegalStateException.class, () -> journal.append(1, 2, "k", 3));
            assertThrows(IllegalStateException.class, () -> journal.append(1, 2, 0, 3));
            assertThrows(IllegalStateException.class, () -> journal.appendIngested(1, 1, 2, "k", 3, -1));
            assertThrows(IllegalStateException.class, () -> journal.keyId("k"));
            final EventRow row = journal.row();
            assertThrows(IllegalArgumentException.class, () -> row.setLong(CARD, 1));
            assertThrows(IllegalArgumentException.class, () -> row.setString(AMOUNT, 1));
            assertThrows(IllegalArgumentException.class, () -> journal.stringId(FEE, "x"));
            final int c = journal.stringId(CARD, "c");
            row.eventId(1).eventTime(2).setString(CARD, c).setString(MERCHANT, c).setString(COUNTRY, c).setLong(AMOUNT, 1).setLong(FEE, 1);
            final IllegalStateException unset = assertThrows(IllegalStateException.class, () -> journal.append(row));
            assertTrue(unset.getMessage().contains("channel"), unset.getMessage());
            row.eventId(1).eventTime(-1).setString(CARD, c).setString(MERCHANT, c).setString(COUNTRY, c).setLong(AMOUNT, 1).setLong(FEE, 1)
                .setString(CHANNEL, c);
            assertThrows(IllegalArgumentException.class, () -> journal.append(row), "negative time");
            row.eventId(1).eventTime(1).setString(CARD, c).setString(MERCHANT, 5).setString(COUNTRY, c).setLong(AMOUNT, 1).setLong(FEE, 1)
                .setString(CHANNEL, c);
            assertThrows(IllegalArgumentException.class, () -> journal.append(row), "unknown id");
        }
        try (JournalReader reader = JournalReader.open(JournalDirectory.open(dir)))
        {
            assertEquals(0, reader.poll((offset, e) -> { }, 10), "nothing was written");
        }
        // and a default journal refuses a row of another journal's schema
        try (EventJournal other = EventJournal.openOrCreate(dir.resolve("payments"), PAYMENTS);
             EventJournal plain = EventJournal.openOrCreate(dir.resolve("plain")))
        {
            assertThrows(IllegalArgumentException.class, () -> plain.append(other.row()));
        }
    }

    @Test
    void aStringColumnTakesOneTo256BytesOfUtf8()
    {
        try (EventJournal journal = EventJournal.openOrCreate(dir, PAYMENTS))
        {
            assertEquals(0, journal.stringId(MERCHANT, "x".repeat(256)));
            assertEquals(1, journal.stringId(MERCHANT, "\u00e9".repeat(128)), "256 bytes in 128 characters");
            assertEquals(2, journal.stringId(MERCHANT, "a b, \"c\" \u20ac"), "any text but a line break");
            final IllegalArgumentException over = assertThrows(IllegalArgumentException.class, () -> journal.stringId(MERCHANT, "x".repeat(257)));
            assertEquals("string over 256 bytes in column merchant", over.getMessage());
            assertThrows(IllegalArgumentException.class, () -> journal.stringId(MERCHANT, "\u00e9".repeat(128) + "x"));
            assertEquals("empty string in column card", assertThrows(IllegalArgumentException.class, () -> journal.stringId(CARD, "")).getMessage());
            assertThrows(IllegalArgumentException.class, () -> journal.stringId(CARD, "a\nb"));
            assertEquals(3, journal.dictionary(MERCHANT).size(), "nothing refused was interned");
        }
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("default")))
        {
            assertThrows(IllegalArgumentException.class, () -> journal.stringId(0, "a b"), "the default key keeps KeyFormat");
            assertThrows(IllegalArgumentException.class, () -> journal.stringId(0, "x".repeat(65)));
            assertEquals(0, journal.stringId(0, "x".repeat(64)));
        }
    }

    static List<Payment> payments(final int n)
    {
        final List<Payment> payments = new ArrayList<>();
        final String[] channels = {"web", "pos", "app \u00e9"};
        for (int i = 0; i < n; i++)
        {
            payments.add(new Payment(i, 1_000L + i, "card-" + (i * 13 % 100), "m, \"" + (i * 7 % 37) + "\"", "C" + (i % 7),
                i * 101L - 50_000, i % 3, channels[i * 5 % 3]));
        }
        return payments;
    }

    static long append(final EventJournal journal, final Payment p, final long line, final long unterminatedLength)
    {
        final EventRow row = journal.row().eventId(p.id()).eventTime(p.time())
            .setString(CARD, journal.stringId(CARD, p.card())).setString(MERCHANT, journal.stringId(MERCHANT, p.merchant()))
            .setString(COUNTRY, journal.stringId(COUNTRY, p.country())).setLong(AMOUNT, p.amount()).setLong(FEE, p.fee())
            .setString(CHANNEL, journal.stringId(CHANNEL, p.channel()));
        return line < 0 ? journal.append(row) : journal.appendIngested(row, line, unterminatedLength);
    }

    private static String text(final Payment p, final int column)
    {
        return switch (column)
        {
            case CARD -> p.card();
            case MERCHANT -> p.merchant();
            case COUNTRY -> p.country();
            default -> p.channel();
        };
    }
}
