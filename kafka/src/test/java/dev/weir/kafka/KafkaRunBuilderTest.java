package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.weir.engine.Weir;
import dev.weir.engine.window.TumblingWindows;
import dev.weir.files.RowColumns;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalRollCycle;
import dev.weir.journal.schema.JournalSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KafkaRunBuilder} without a broker: the command's defaults, records read as events CSV lines keyed by the
 * key column ({@link RecordDecoder#csv}), and what it refuses before any connection.
 */
final class KafkaRunBuilderTest
{
    private static final JournalSchema CARDS = JournalSchema.parse("card:string,merchant:string,amount:decimal(2)");

    @TempDir
    Path dir;

    @Test
    void defaultsAreThoseOfWeirRunKafka()
    {
        final KafkaRun.Settings settings = required().settings();

        assertEquals("127.0.0.1:39092", settings.bootstrap(), "trimmed");
        assertEquals("windows-rejected", settings.rejectedTopic());
        assertEquals("fraud-weir-checkpoints", settings.checkpointTopic());
        assertEquals(CARDS, settings.schema());
        assertEquals(JournalRollCycle.DAILY, settings.rollCycle());
        assertEquals(Duration.ofMillis(200), settings.commitInterval());
        assertEquals(Duration.ofSeconds(10), settings.transactionTimeout());
        assertEquals(Duration.ofSeconds(10), settings.sessionTimeout());
        assertEquals(Duration.ZERO, settings.idleTimeout(), "no heartbeats unless --idle-timeout");
        assertEquals(Duration.ofSeconds(5), required().idleTimeout(Duration.ofSeconds(5)).settings().idleTimeout());
        assertEquals(KafkaRunBuilder.hostInstance(), settings.instance());
        assertTrue(settings.pipeline().get().concludeFor(CARDS).describe().contains("card"), "the pipeline given, valid for the columns");
        assertTrue(settings.instance().matches("[A-Za-z0-9._-]+"), settings.instance());
        assertEquals("refused", required().rejectedTopic("refused").instance("a").settings().rejectedTopic());
    }

    @Test
    void recordsAreEventsCsvLinesKeyedByTheKeyColumn()
    {
        final RecordDecoder decoder = required().settings().decoders().get();
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal"), CARDS))
        {
            final long offset = decoder.append(bytes("card-1"), bytes("1,1000,card-1,shop,12.50\r\n"), journal);
            assertTrue(offset >= 0, () -> "appended: " + decoder.rejection());
            assertEquals(-1, decoder.append(bytes("card-2"), bytes("2,1001,card-1,shop,1.00"), journal));
            assertTrue(decoder.rejection().startsWith("record key 'card-2' is not the key column card ('card-1')"), decoder.rejection());
            assertEquals(-1, decoder.append(bytes("card-1"), null, journal));
            assertEquals("no value", decoder.rejection());
        }
    }

    @Test
    void aKeyOfSeveralColumnsOrADecimalIsTheirTextAsTheResultRowsPrintIt()
    {
        final RecordDecoder composite = required().keyColumn("card,merchant").settings().decoders().get();
        final RecordDecoder decimal = required().keyColumn("amount").settings().decoders().get();
        try (EventJournal journal = EventJournal.openOrCreate(dir.resolve("journal"), CARDS))
        {
            assertTrue(composite.append(bytes("card-1,shop"), bytes("1,1000,card-1,shop,12.50"), journal) >= 0, composite::rejection);
            assertEquals(-1, composite.append(bytes("card-1"), bytes("2,1000,card-1,shop,12.50"), journal));
            assertTrue(composite.rejection().startsWith("record key 'card-1' is not the key columns card,merchant ('card-1,shop')"),
                composite.rejection());
            assertTrue(decimal.append(bytes("12.50"), bytes("3,1000,card-1,shop,12.5"), journal) >= 0, decimal::rejection);
            assertEquals(-1, decimal.append(bytes("12.5"), bytes("4,1000,card-1,shop,12.50"), journal));
            assertTrue(decimal.rejection().startsWith("record key '12.5' is not the key column amount ('12.50')"), decimal.rejection());
        }
    }

    @Test
    void refusesAKeyColumnThatCannotKeyATopicAndABadAddressBeforeAnyConnection()
    {
        final IllegalArgumentException notAColumn = assertThrows(IllegalArgumentException.class,
            () -> required().keyColumn("card,shop").settings());
        assertTrue(notAColumn.getMessage().contains("the key column shop is not a column of"), notAColumn.getMessage());
        assertThrows(NullPointerException.class, () -> KafkaRun.builder().bootstrap("127.0.0.1:39092").topic("t").group("g")
            .outputTopic("o").journal(dir).schema(CARDS).rows(columns()).pipeline(Weir::pipeline).settings(), "no key column, no decoders");
        final IllegalArgumentException address = assertThrows(IllegalArgumentException.class, () -> KafkaRun.builder().bootstrap("localhost"));
        assertTrue(address.getMessage().startsWith("localhost: not HOST:PORT"), address.getMessage());
        assertThrows(IllegalArgumentException.class, () -> required().instance("a b").settings(), "an instance id with a space");
        assertThrows(IllegalArgumentException.class, () -> required().idleTimeout(Duration.ofSeconds(-1)).settings(), "a negative idle timeout");
    }

    private KafkaRunBuilder required()
    {
        return KafkaRun.builder().bootstrap(" 127.0.0.1:39092 ").topic("payments").group("fraud").outputTopic("windows").journal(dir)
            .schema(CARDS).keyColumn("card").rows(columns()).pipeline(() -> Weir.pipeline().keyColumn("card").valueColumn("amount")
                .window(TumblingWindows.of(10_000)).outOfOrderness(5_000).checkpointEvery(50_000));
    }

    private static RowColumns columns()
    {
        return new RowColumns("card", "amount", List.of());
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
