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
 * {@code weir run --kafka --record-format json}: a record's value is a JSON object whose members are named as the
 * columns; it becomes the same event as the CSV line of the same fields, and a value that is not such an object is
 * refused with a reason that names what is wrong.
 */
class JsonRecordDecoderTest
{
    private static final JournalSchema SIX = JournalSchema.parse(
        "card:string,merchant:string,country:string,amount:decimal(2),channel:string=web,fee:decimal(2)=0");

    @TempDir
    Path dir;

    @Test
    void anObjectBecomesTheEventOfItsMembersInAnyOrderWithTheDefaultsOfThoseMissing()
    {
        final Path journal = dir.resolve("json");
        try (EventJournal events = EventJournal.openOrCreate(journal, SIX))
        {
            final JsonRecordDecoder records = new JsonRecordDecoder(SIX, 0);
            for (int round = 0; round < 2; round++) // the second reads the same strings from their bytes
            {
                final int id = 10 * round;
                accept(records, events, "c1", "{\"event_id\":" + (id + 1) + ",\"event_time\":1000,\"card\":\"c1\",\"merchant\":\"m1\","
                    + "\"country\":\"FR\",\"amount\":12.5}");
                accept(records, events, "c2", " {\n \"amount\" : \"1.00\", \"fee\": 0.25, \"channel\": \"app\", \"country\": \"DE\","
                    + " \"merchant\": \"Caf\\u00e9 \\\"Le Bon\\\", Paris\", \"card\": \"c2\", \"event_time\": \"2026-12-02T09:30:00Z\","
                    + " \"event_id\": " + (id + 2) + ", \"note\": {\"a\": [1, true, null, {\"b\": \"x\"}]}, \"tags\": [] }\n");
                accept(records, events, "c3", "{\"event_id\":" + (id + 3) + ",\"event_time\":3000,\"card\":\"c3\",\"merchant\":\"\\ud83d\\ude00\","
                    + "\"country\":\"IT\",\"amount\":-2,\"channel\":null,\"fee\":\"0.10\"}");
            }
        }
        final List<String> once = List.of("1|1000|c1|m1|FR|12.50|web|0.00", "2|1796203800000|c2|Café \"Le Bon\", Paris|DE|1.00|app|0.25",
            "3|3000|c3|😀|IT|-2.00|web|0.10");
        final List<String> rows = JournalRows.events(journal);
        assertEquals(once, rows.subList(0, 3));
        assertEquals(once.stream().map(r -> "1" + r).toList(), rows.subList(3, 6));
    }

    @Test
    void aValueThatIsNotSuchAnObjectIsRefusedWithItsReason()
    {
        final String ok = "\"event_time\":1000,\"card\":\"c1\",\"merchant\":\"m1\",\"country\":\"FR\",\"amount\":1";
        try (EventJournal events = EventJournal.openOrCreate(dir.resolve("refused"), SIX))
        {
            final JsonRecordDecoder records = new JsonRecordDecoder(SIX, 0);
            refuse(records, events, "c1", "1,1000,c1,m1,FR,1.00", "not a JSON object at byte 0");
            refuse(records, events, "c1", "", "not a JSON object: empty");
            refuse(records, events, "c1", "{\"event_id\":1," + ok + "} x", "more after the object at byte 87");
            refuse(records, events, "c1", "{\"event_id\":1," + ok, "expected ',' or '}' at byte 85");
            refuse(records, events, "c1", "{\"event_id\":01," + ok + "}", "expected ',' or '}' at byte 13");
            refuse(records, events, "c1", "{\"event_id\":1,\"card\":\"c\u0001\"}", "a control character in a string at byte 23");
            refuse(records, events, "c1", "{\"event_id\":1,\"card\":\"\\ud83d\"}", "a lone surrogate escape at byte 22");
            refuse(records, events, "c1", "{\"event_id\":1,\"card\":\"\\x\"}", "a bad escape at byte 22");
            refuse(records, events, "c1", "{" + ok + "}", "no member event_id");
            refuse(records, events, "c1", "{\"event_id\":null," + ok + "}", "member is null: event_id");
            refuse(records, events, "c1", "{\"event_id\":1,\"event_time\":1000,\"card\":\"c1\",\"country\":\"FR\",\"amount\":1}", "no member merchant");
            refuse(records, events, "c1", "{\"event_id\":1," + ok + ",\"card\":\"c1\"}", "member card twice");
            refuse(records, events, "c1", "{\"event_id\":1," + ok + ",\"fee\":true}", "member fee is a boolean, not a number");
            refuse(records, events, "c1", "{\"event_id\":1," + ok + ",\"channel\":[\"web\"]}", "member channel is an array, not a string");
            refuse(records, events, "c1", "{\"event_id\":1," + ok + ",\"fee\":\"1,5\"}", "member fee is not a number: '1,5'");
            refuse(records, events, "c1", "{\"event_id\":1.5," + ok + "}", "event_id is not a 64-bit integer: '1.5'");
            refuse(records, events, "c1", "{\"event_id\":1," + ok.replace("\"amount\":1", "\"amount\":1.234") + "}",
                "bad decimal in column amount: 1.234 (scale 2)");
            refuse(records, events, "c2", "{\"event_id\":1," + ok + "}",
                "record key 'c2' is not the key column card ('c1'): the topic must be partitioned by the pipeline's key");
            accept(records, events, "c1", "{\"event_id\":1," + ok + "}");
        }
    }

    @Test
    void theKeyOfTheDefaultColumnsIsCheckedAsInALine()
    {
        try (EventJournal events = EventJournal.openOrCreate(dir.resolve("default"), JournalSchema.DEFAULT))
        {
            final JsonRecordDecoder records = new JsonRecordDecoder(JournalSchema.DEFAULT, 0);
            accept(records, events, "k-1", "{\"event_id\":1,\"event_time\":1000,\"key\":\"k-1\",\"value\":5}");
            refuse(records, events, "k,1", "{\"event_id\":2,\"event_time\":1000,\"key\":\"k,1\",\"value\":5}",
                "key has characters outside [A-Za-z0-9_-]");
        }
        assertEquals(List.of("1|1000|k-1|5"), JournalRows.events(dir.resolve("default")));
    }

    @Test
    void theRecordKeyOfSeveralKeyColumnsIsTheirTextsJoinedByCommasInKeyOrder()
    {
        final JournalSchema byAccount = JournalSchema.parse("account:long,merchant:string,amount:decimal(2)");
        try (EventJournal events = EventJournal.openOrCreate(dir.resolve("composite"), byAccount))
        {
            final JsonRecordDecoder records = new JsonRecordDecoder(byAccount, new int[] {1, 0, 2});
            for (int round = 0; round < 2; round++)
            {
                accept(records, events, "m1,7,1.50", "{\"event_id\":1,\"event_time\":1000,\"account\":7,\"merchant\":\"m1\",\"amount\":1.5}");
                accept(records, events, "\"Shop, Inc.\",-42,0.00",
                    "{\"amount\":\"0\",\"merchant\":\"Shop, Inc.\",\"account\":\"-42\",\"event_id\":2,\"event_time\":1000}");
                refuse(records, events, "m1,7,1.5", "{\"event_id\":3,\"event_time\":1000,\"account\":7,\"merchant\":\"m1\",\"amount\":1.5}",
                    "record key 'm1,7,1.5' is not the key columns merchant,account,amount ('m1,7,1.50'): the topic must be partitioned by the pipeline's key");
                refuse(records, events, "m1", "{\"event_id\":4,\"event_time\":1000,\"account\":7,\"merchant\":\"m1\",\"amount\":1.5}",
                    "record key 'm1' is not the key columns merchant,account,amount ('m1,7,1.50'): the topic must be partitioned by the pipeline's key");
            }
        }
        assertEquals(List.of("1|1000|7|m1|1.50", "2|1000|-42|Shop, Inc.|0.00", "1|1000|7|m1|1.50", "2|1000|-42|Shop, Inc.|0.00"),
            JournalRows.events(dir.resolve("composite")));
    }

    private static void accept(final JsonRecordDecoder records, final EventJournal events, final String key, final String value)
    {
        final long offset = records.append(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8), events);
        assertTrue(offset >= 0, () -> value + ": " + records.rejection());
    }

    private static void refuse(final JsonRecordDecoder records, final EventJournal events, final String key, final String value,
        final String reason)
    {
        assertEquals(-1, records.append(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8), events), value);
        assertEquals(reason, records.rejection(), value);
    }
}
