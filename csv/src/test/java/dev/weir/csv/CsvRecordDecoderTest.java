package dev.weir.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import dev.weir.journal.EventJournal;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.JournalRows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decoder of {@code weir run --kafka --columns} with columns added at the end, each with a default: a record of an older
 * producer, whose value lacks some of the last columns, is appended to the partition's journal with their
 * defaults, into a journal that gained the columns and into one created with them (rebuilt from the topic);
 * a value that lacks a column without a default, or the key column, is rejected as before.
 */
class CsvRecordDecoderTest
{
    private static final String FOUR = "card:string,merchant:string,country:string,amount:decimal(2)";
    private static final JournalSchema SIX = JournalSchema.parse(FOUR + ",channel:string=web,fee:decimal(2)=0");

    @TempDir
    Path dir;

    @Test
    void aRecordOfAnOlderProducerGetsTheDefaultsOfTheColumnsItLacks()
    {
        final Path journal = dir.resolve("gained");
        EventJournal.openOrCreate(journal, JournalSchema.parse(FOUR)).close();
        final List<String> rows = List.of(
            "1|1000|c1|m1|FR|12.50|web|0.00",
            "2|2000|c2|m2|DE|1.00|app|0.25",
            "3|3000|c3|m3|IT|2.00|pos|0.00");
        try (EventJournal events = EventJournal.openOrCreate(journal, SIX))
        {
            final CsvRecordDecoder records = new CsvRecordDecoder(SIX, 0);
            assertTrue(append(records, events, "c1", "1,1000,c1,m1,FR,12.50") >= 0, records.rejection());
            assertTrue(append(records, events, "c2", "2,2000,c2,m2,DE,1.00,app,0.25") >= 0, records.rejection());
            assertTrue(append(records, events, "c3", "3,3000,c3,m3,IT,2.00,pos\n") >= 0, records.rejection());
            assertEquals(-1, append(records, events, "c4", "4,4000,c4,m4,FR"));
            assertEquals("expected 8 fields, got 5", records.rejection(), "amount has no default");
            assertEquals(-1, append(records, events, "c5", "5,5000,c5,m5,FR,1.234"));
            assertEquals("bad decimal in column amount: 1.234 (scale 2)", records.rejection(), "the reason of the older producer's columns");

            final CsvRecordDecoder byChannel = new CsvRecordDecoder(SIX, SIX.indexOf("channel"));
            assertEquals(-1, append(byChannel, events, "web", "6,6000,c6,m6,FR,1.00"));
            assertEquals("expected 8 fields, got 6", byChannel.rejection(), "a record without the key column is not an older producer's");
        }
        assertEquals(rows, JournalRows.events(journal));

        final Path rebuilt = dir.resolve("rebuilt");
        try (EventJournal events = EventJournal.openOrCreate(rebuilt, SIX))
        {
            final CsvRecordDecoder records = new CsvRecordDecoder(SIX, 0);
            assertTrue(append(records, events, "c1", "1,1000,c1,m1,FR,12.50") >= 0, records.rejection());
            assertTrue(append(records, events, "c2", "2,2000,c2,m2,DE,1.00,app,0.25") >= 0, records.rejection());
        }
        assertEquals(rows.subList(0, 2), JournalRows.events(rebuilt), "the defaults are those of --columns");
    }

    @Test
    void aRecordsEventTimeIsEpochMillisecondsOrAnIsoInstant()
    {
        final Path journal = dir.resolve("iso");
        try (EventJournal events = EventJournal.openOrCreate(journal, JournalSchema.parse(FOUR)))
        {
            final CsvRecordDecoder records = new CsvRecordDecoder(JournalSchema.parse(FOUR), 0);
            assertTrue(append(records, events, "c1", "1,2026-12-02T09:30:00Z,c1,m1,FR,12.50") >= 0, records.rejection());
            assertTrue(append(records, events, "c2", "2,2026-12-02T10:30:00.250+01:00,c2,m2,DE,1.00") >= 0, records.rejection());
            assertTrue(append(records, events, "c3", "3,1796203800500,c3,m3,IT,2.00") >= 0, records.rejection());
            assertEquals(-1, append(records, events, "c4", "4,2026-12-02,c4,m4,FR,1.00"));
            assertEquals("event_time is neither epoch milliseconds nor an ISO-8601 instant (2026-12-02T09:30:00Z): '2026-12-02'",
                records.rejection());
        }
        assertEquals(List.of("1|1796203800000|c1|m1|FR|12.50", "2|1796203800250|c2|m2|DE|1.00", "3|1796203800500|c3|m3|IT|2.00"),
            JournalRows.events(journal));
    }

    @Test
    void theRecordKeyMustBeTheKeyColumnsTextWhetherTheValueIsReadAsTextOrFromItsBytes()
    {
        final JournalSchema byAccount = JournalSchema.parse("account:long,merchant:string,amount:decimal(2)");
        final Path journal = dir.resolve("keys");
        try (EventJournal events = EventJournal.openOrCreate(journal, byAccount))
        {
            final CsvRecordDecoder records = new CsvRecordDecoder(byAccount, 0);
            for (int round = 0; round < 2; round++) // the first reads each value as text and learns m1; the second from its bytes
            {
                final long id = 10 * round;
                assertTrue(append(records, events, "7", (id + 1) + ",1000,7,m1,1.00\r\n") >= 0, records.rejection());
                assertTrue(append(records, events, "-42", (id + 2) + ",1000,-42,m1,1.00") >= 0, records.rejection());
                assertTrue(append(records, events, "-9223372036854775808", (id + 3) + ",1000,-9223372036854775808,m1,1.00") >= 0,
                    records.rejection());
                assertEquals(-1, append(records, events, "07", (id + 4) + ",1000,7,m1,1.00"));
                assertEquals("record key '07' is not the key column account ('7'): the topic must be partitioned by the pipeline's key",
                    records.rejection());
                assertEquals(-1, append(records, events, "42", (id + 5) + ",1000,-42,m1,1.00"));
                assertEquals(-1, append(records, events, "+7", (id + 6) + ",1000,7,m1,1.00"));
                assertEquals(-1, append(records, events, "", (id + 7) + ",1000,7,m1,1.00"));
                assertEquals(-1, records.append(null, ((id + 8) + ",1000,7,m1,1.00").getBytes(StandardCharsets.UTF_8), events));
                assertEquals("no record key (the key column account is 7)", records.rejection());
            }
        }
        assertEquals(List.of("1|1000|7|m1|1.00", "2|1000|-42|m1|1.00", "3|1000|-9223372036854775808|m1|1.00",
            "11|1000|7|m1|1.00", "12|1000|-42|m1|1.00", "13|1000|-9223372036854775808|m1|1.00"), JournalRows.events(journal));

        final Path named = dir.resolve("named");
        try (EventJournal events = EventJournal.openOrCreate(named, JournalSchema.DEFAULT))
        {
            final CsvRecordDecoder records = new CsvRecordDecoder(JournalSchema.DEFAULT, 0);
            for (int round = 0; round < 2; round++)
            {
                assertTrue(append(records, events, "Acme_1", (round + 1) + ",1000,Acme_1,5") >= 0, records.rejection());
                assertEquals(-1, append(records, events, "acme_1", "9,1000,Acme_1,5"));
                assertEquals("record key 'acme_1' is not the key column key ('Acme_1'): the topic must be partitioned by the pipeline's key",
                    records.rejection());
            }
        }
        assertEquals(List.of("1|1000|Acme_1|5", "2|1000|Acme_1|5"), JournalRows.events(named));
    }

    @Test
    void theRecordKeyOfSeveralKeyColumnsIsTheirTextsJoinedByCommasInKeyOrder()
    {
        final JournalSchema byAccount = JournalSchema.parse("account:long,merchant:string,amount:decimal(2)");
        final Path journal = dir.resolve("composite");
        try (EventJournal events = EventJournal.openOrCreate(journal, byAccount))
        {
            final CsvRecordDecoder records = new CsvRecordDecoder(byAccount, new int[] {1, 0}); // --key merchant,account
            for (int round = 0; round < 2; round++) // the first reads each value as text and learns the merchants; the second from its bytes
            {
                final long id = 10 * round;
                assertTrue(append(records, events, "m1,7", (id + 1) + ",1000,7,m1,1.00") >= 0, records.rejection());
                assertTrue(append(records, events, "\"Shop, Inc.\",-42", (id + 2) + ",1000,-42,\"Shop, Inc.\",1.00") >= 0, records.rejection());
                assertTrue(append(records, events, "\"Le \"\"Bon\"\"\",7", (id + 3) + ",1000,7,\"Le \"\"Bon\"\"\",1.00") >= 0, records.rejection());
                assertEquals(-1, append(records, events, "7,m1", (id + 4) + ",1000,7,m1,1.00"));
                assertEquals("record key '7,m1' is not the key columns merchant,account ('m1,7'): the topic must be partitioned by the pipeline's key",
                    records.rejection());
                assertEquals(-1, append(records, events, "m1", (id + 5) + ",1000,7,m1,1.00"));
                assertEquals(-1, append(records, events, "m1,7,", (id + 5) + ",1000,7,m1,1.00"));
                assertEquals(-1, append(records, events, "m1,7,1.00", (id + 5) + ",1000,7,m1,1.00"));
                assertEquals(-1, append(records, events, "m1,07", (id + 5) + ",1000,7,m1,1.00"));
                assertEquals(-1, append(records, events, "m2,7", (id + 5) + ",1000,7,m1,1.00"));
                assertEquals(-1, append(records, events, "Shop, Inc.,-42", (id + 6) + ",1000,-42,\"Shop, Inc.\",1.00"));
                assertEquals("record key 'Shop, Inc.,-42' is not the key columns merchant,account ('\"Shop, Inc.\",-42'): "
                    + "the topic must be partitioned by the pipeline's key", records.rejection());
                assertEquals(-1, append(records, events, "\"m1\",7", (id + 7) + ",1000,7,m1,1.00"), "a field is quoted only if it must be");
                assertEquals(-1, records.append(null, ((id + 8) + ",1000,7,m1,1.00").getBytes(StandardCharsets.UTF_8), events));
                assertEquals("no record key (the key columns merchant,account are m1,7)", records.rejection());
            }
        }
        assertEquals(List.of("1|1000|7|m1|1.00", "2|1000|-42|Shop, Inc.|1.00", "3|1000|7|Le \"Bon\"|1.00",
            "11|1000|7|m1|1.00", "12|1000|-42|Shop, Inc.|1.00", "13|1000|7|Le \"Bon\"|1.00"), JournalRows.events(journal));
    }

    @Test
    void theRecordKeyOfADecimalKeyIsItsValueAtTheColumnsScale()
    {
        final JournalSchema byAmount = JournalSchema.parse("amount:decimal(2),merchant:string");
        try (EventJournal events = EventJournal.openOrCreate(dir.resolve("decimal"), byAmount))
        {
            final CsvRecordDecoder records = new CsvRecordDecoder(byAmount, 0);
            final CsvRecordDecoder composite = new CsvRecordDecoder(byAmount, new int[] {1, 0});
            for (int round = 0; round < 2; round++)
            {
                assertTrue(append(records, events, "12.50", "1,1000,12.50,m1") >= 0, records.rejection());
                assertTrue(append(records, events, "12.50", "2,1000,12.5,m1") >= 0, records.rejection());
                assertTrue(append(records, events, "-0.05", "3,1000,-0.05,m1") >= 0, records.rejection());
                assertTrue(append(records, events, "7.00", "4,1000,7,m1") >= 0, records.rejection());
                assertTrue(append(composite, events, "m1,0.00", "5,1000,0,m1") >= 0, composite.rejection());
                assertEquals(-1, append(records, events, "12.5", "6,1000,12.50,m1"));
                assertEquals("record key '12.5' is not the key column amount ('12.50'): the topic must be partitioned by the pipeline's key",
                    records.rejection());
                assertEquals(-1, append(records, events, "-.05", "7,1000,-0.05,m1"));
                assertEquals(-1, append(records, events, "7", "8,1000,7.00,m1"));
                assertEquals(-1, append(composite, events, "m1,0", "9,1000,0.00,m1"));
                assertEquals("record key 'm1,0' is not the key columns merchant,amount ('m1,0.00'): the topic must be partitioned by the pipeline's key",
                    composite.rejection());
            }
        }
    }

    private static long append(final CsvRecordDecoder records, final EventJournal events, final String key, final String value)
    {
        return records.append(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8), events);
    }
}
