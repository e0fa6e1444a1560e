package dev.weir.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.weir.engine.aggregate.NamedAggregates;
import dev.weir.engine.fired.FiredResult;
import dev.weir.engine.fired.SkippedEvent;
import dev.weir.files.RowColumns;
import dev.weir.files.TimeFormat;
import dev.weir.journal.EventJournal;
import dev.weir.journal.JournalDirectory;
import dev.weir.journal.OutputJournal;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The output topic's rows of a pipeline with named aggregates are the results CSV's: a column per aggregate at its
 * scale, an empty field where the window has no value (the stored presence mask), a late event without a value; as
 * {@code weir run --kafka} produces them ({@link OutputRows#csv}) and as {@link KafkaOutputSink} delivers them.
 */
final class NamedAggregateRowsTest
{
    private static final List<String> ROWS = List.of("ACME=0,60000,ACME,12.50,35,12.600000,0", "BETA=60000,120000,BETA,3.00,0,,0", "ACME=7,500,ACME");

    @TempDir
    Path dir;

    private JournalDirectory pipeline;

    /** Two results (the second's vwap empty: bit 2 of the mask clear) and a late event, as a candle pipeline stores them. */
    @BeforeEach
    void writeTheOutputJournal()
    {
        final Path journal = dir.resolve("journal");
        final int acme;
        final int beta;
        try (EventJournal events = EventJournal.openOrCreate(journal, JournalSchema.parse("instrument:string,price:decimal(2),qty:long")))
        {
            acme = events.stringId(0, "ACME");
            beta = events.stringId(0, "BETA");
            events.append(events.row().eventId(1).eventTime(1_000).setString(0, acme).setLong(1, 1250).setLong(2, 35));
            events.append(events.row().eventId(2).eventTime(61_000).setString(0, beta).setLong(1, 300).setLong(2, 0));
        }
        pipeline = JournalDirectory.open(journal).pipeline(JournalDirectory.DEFAULT_PIPELINE);
        try (OutputJournal output = OutputJournal.openForAppend(pipeline))
        {
            final FiredResult r = new FiredResult().withAggregates(4);
            output.appendResult(r.window(0, 60_000).keyId(acme).count(3).withAggregate(0, 1250).withAggregate(1, 35).withAggregate(2, 12_600_000)
                .withAggregate(3, 0b111), 4);
            output.appendResult(r.window(60_000, 120_000).keyId(beta).count(1).withAggregate(0, 300).withAggregate(1, 0).withAggregate(2, 0)
                .withAggregate(3, 0b011), 4);
            output.appendLate(new SkippedEvent().set(7, 500, acme, 0, 2));
        }
    }

    @Test
    void theRowsOfWeirRunKafkaAreTheResultsCsvRows()
    {
        final List<String> rows = new ArrayList<>();
        try (OutputRows text = OutputRows.csv(columns()).open(pipeline); OutputJournal output = OutputJournal.open(pipeline))
        {
            output.readAll(stored -> rows.add(text.key(stored) + "=" + text.value(stored)));
        }
        assertEquals(ROWS, rows);
    }

    @Test
    void theSinkDeliversTheResultsCsvRows() throws Exception
    {
        final String bootstrap = KafkaBroker.bootstrap();
        final String topic;
        try (Admin admin = KafkaBroker.admin(bootstrap))
        {
            topic = KafkaBroker.topic(admin, "weir-named", 1);
        }
        try (KafkaOutputSink sink = new KafkaOutputSink(bootstrap, topic, columns()))
        {
            sink.deliver(pipeline);
        }
        final List<String> rows = new ArrayList<>();
        for (final ConsumerRecord<byte[], byte[]> record : KafkaBroker.readCommitted(bootstrap, topic, Duration.ofSeconds(1)))
        {
            rows.add(new String(record.key(), StandardCharsets.UTF_8) + "=" + new String(record.value(), StandardCharsets.UTF_8));
        }
        assertEquals(ROWS, rows);
    }

    private static RowColumns columns()
    {
        return new RowColumns("instrument", null, List.of(), false, null, null, TimeFormat.epoch, List.of(),
            NamedAggregates.parse("open=first(price),volume=sum(qty),vwap=sum(price*qty)/sum(qty)"));
    }
}
