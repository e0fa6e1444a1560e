package dev.weir.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.weir.csv.InputLines;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.journal.schema.JournalSchema;
import dev.weir.journal.schema.TableDefinition;
import dev.weir.kafka.CsvProducer;
import dev.weir.kafka.SendRate;
import dev.weir.kafka.TableProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir produce}: send the lines of an events CSV to a Kafka topic, one record per line, keyed by the line's
 * key column, for {@code weir run --kafka} to read ({@link CsvProducer}). The topic is created if missing. The
 * command exits 0 only once every record is acknowledged. Not exactly-once across runs: running it twice sends the
 * lines twice. With {@code --table}, the input is a table CSV whose rows are sent to every partition of the topic
 * ({@link TableProducer}), for {@code weir run --kafka --table} to join.
 */
@Command(name = "produce", mixinStandardHelpOptions = true,
    description = "Send the lines of an events CSV to a Kafka topic, one record per line, keyed by the key column.")
final class ProduceCommand implements Callable<Integer>
{
    @Option(names = "--kafka", required = true, paramLabel = "HOST:PORT", description = "the Kafka broker(s) to bootstrap from, comma-separated")
    String kafka;

    @Option(names = "--topic", required = true, paramLabel = "T", description = "the topic (created if missing)")
    String topic;

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "events CSV: event_id,event_time, then one field per column; "
        + "a first line that is the columns' header is not sent")
    Path input;

    @Option(names = "--columns", paramLabel = "SPEC", description = "the columns of the events, e.g. card:string,amount:decimal(2) "
        + "(default: key:string,value:long)")
    String columns;

    @Option(names = "--table", paramLabel = "NAME", description = "the input is a table CSV of table NAME (event_time, its --columns, "
        + "optionally op, as weir ingest --table reads it): each row is sent to every partition, with header weir-table: NAME, "
        + "keyed by its --key columns' texts; an invalid row is reported and not sent")
    String table;

    @Option(names = "--key", paramLabel = "COLUMN", defaultValue = ColumnProjection.DEFAULT_KEY,
        description = "the column whose text is the record key, or several separated by commas (the key is then their texts "
            + "joined by commas, as weir run --kafka checks it) (default: ${DEFAULT-VALUE})")
    String key;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "6",
        description = "partitions of the topic if it is created (default: ${DEFAULT-VALUE}); an existing topic keeps its own")
    int partitions;

    @Option(names = "--rate", paramLabel = "N/s", description = "send at most N records per second (default: as fast as the broker takes them)")
    String rate;

    @Override
    public Integer call()
    {
        if (table != null)
        {
            return produceTable();
        }
        final JournalSchema schema = columns == null ? JournalSchema.DEFAULT : ColumnsOption.parse(columns);
        for (final String column : key.split(",", -1))
        {
            if (schema.indexOf(column.trim()) < 0)
            {
                throw new BadInputException("--key " + key + ": " + column.trim() + " is not one of the columns " + schema);
            }
        }
        if (partitions < 1)
        {
            throw new BadInputException("--partitions " + partitions + ": a topic has at least one partition");
        }
        final SendRate pacing = rate == null ? null : rate();
        final String bootstrap = KafkaOptions.bootstrap(kafka);
        if (topic.isBlank())
        {
            throw new BadInputException("--topic: a topic needs a name");
        }
        final CsvProducer producer = new CsvProducer(bootstrap, topic, input, schema, key);

        final int topicPartitions = producer.createTopic(partitions);
        if (topicPartitions != partitions)
        {
            System.err.printf("weir: topic %s exists with %d partitions: it keeps them%n", topic, topicPartitions);
        }
        final CsvProducer.Sent sent;
        try (Progress progress = Progress.start("produce", "lines", producer::sent))
        {
            sent = producer.send(pacing,
                line -> System.err.printf("weir: line %,d of %s is longer than %,d bytes: not sent%n", line, input, InputLines.MAX_LINE_BYTES));
        }
        final double seconds = sent.nanos() / 1e9;
        System.out.printf("Sent %,d lines of %s to topic %s (%d partitions) at %s in %.1f s (%,.0f lines/s), keyed by %s%s%s.%n",
            sent.records(), input, topic, topicPartitions, bootstrap, seconds, sent.records() / Math.max(seconds, 1e-3), key,
            sent.keyless() > 0 ? String.format("; %,d without a key (their %s field could not be found: weir run rejects them)", sent.keyless(), key) : "",
            sent.tooLong() > 0 ? String.format("; %,d lines longer than %,d bytes not sent", sent.tooLong(), InputLines.MAX_LINE_BYTES) : "");
        return 0;
    }

    /** {@code --table}: the rows of a table CSV, to every partition. */
    private int produceTable()
    {
        if (columns == null)
        {
            throw new BadInputException("--table " + table + " needs --columns: the table's columns, e.g. card:string,limit:decimal(2)");
        }
        final TableDefinition definition;
        try
        {
            definition = TableDefinition.parse(table, key, columns);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException("--table: " + ex.getMessage());
        }
        if (partitions < 1)
        {
            throw new BadInputException("--partitions " + partitions + ": a topic has at least one partition");
        }
        final SendRate pacing = rate == null ? null : rate();
        final String bootstrap = KafkaOptions.bootstrap(kafka);
        if (topic.isBlank())
        {
            throw new BadInputException("--topic: a topic needs a name");
        }
        final TableProducer producer;
        try
        {
            producer = new TableProducer(bootstrap, topic, input, definition);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException("--table: " + ex.getMessage());
        }
        final int topicPartitions = producer.createTopic(partitions);
        if (topicPartitions != partitions)
        {
            System.err.printf("weir: topic %s exists with %d partitions: it keeps them%n", topic, topicPartitions);
        }
        final TableProducer.Sent sent;
        try (Progress progress = Progress.start("produce", "records", producer::sent))
        {
            sent = producer.send(pacing, (line, reason) -> System.err.printf("weir: line %,d of %s: %s: not sent%n", line, input, reason));
        }
        final double seconds = sent.nanos() / 1e9;
        System.out.printf("Sent %,d rows of table %s from %s to each of the %d partitions of topic %s at %s (%,d records) in %.1f s%s.%n",
            sent.rows(), table, input, sent.partitions(), topic, bootstrap, sent.records(), seconds,
            sent.notSent() > 0 ? String.format("; %,d invalid lines not sent", sent.notSent()) : "");
        return 0;
    }

    private SendRate rate()
    {
        try
        {
            return SendRate.parse(rate);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException("--rate " + ex.getMessage());
        }
    }
}
