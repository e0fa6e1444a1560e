package dev.weir.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.weir.csv.InputLines;
import dev.weir.csv.KeyField;
import dev.weir.engine.expr.ColumnProjection;
import dev.weir.journal.JournalSchema;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir produce}: send the lines of an events CSV to a Kafka topic, one record per line, keyed by the line's
 * key column, for {@code weir run --kafka} to read. The topic is created if missing. The producer is idempotent with
 * {@code acks=all}; the command exits 0 only once every record is acknowledged. Not exactly-once across runs: running
 * it twice sends the lines twice.
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

    @Option(names = "--key", paramLabel = "COLUMN", defaultValue = ColumnProjection.DEFAULT_KEY,
        description = "the column whose text is the record key (default: ${DEFAULT-VALUE})")
    String key;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "6",
        description = "partitions of the topic if it is created (default: ${DEFAULT-VALUE}); an existing topic keeps its own")
    int partitions;

    @Option(names = "--rate", paramLabel = "N/s", description = "send at most N records per second (default: as fast as the broker takes them)")
    String rate;

    @Override
    public Integer call()
    {
        final JournalSchema schema = columns == null ? JournalSchema.DEFAULT : ColumnsOption.parse(columns);
        final int keyColumn = schema.indexOf(key);
        if (keyColumn < 0)
        {
            throw new BadInputException("--key " + key + ": not one of the columns " + schema);
        }
        if (partitions < 1)
        {
            throw new BadInputException("--partitions " + partitions + ": a topic has at least one partition");
        }
        final SendRate pacing = rate == null ? null : SendRate.parse(rate);
        final String bootstrap = KafkaAddress.check(kafka);
        if (topic.isBlank())
        {
            throw new BadInputException("--topic: a topic needs a name");
        }
        if (!Files.isRegularFile(input))
        {
            throw new BadInputException("input file not found: " + input);
        }
        final boolean header = startsWithHeader(schema);

        final int topicPartitions = new ProducedTopic(bootstrap, topic).ensure(partitions);
        final KeyField keyField = new KeyField(2 + keyColumn);
        final AtomicLong sent = new AtomicLong();
        final AtomicReference<Exception> failure = new AtomicReference<>();
        final long started = System.nanoTime();
        long keyless = 0;
        long skipped = 0;
        try (InputLines in = new InputLines(Files.newInputStream(input));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProperties(bootstrap));
             Progress progress = Progress.start("produce", "lines", sent::get))
        {
            long line = 0;
            while (in.next() && failure.get() == null)
            {
                line++;
                if ((line == 1 && header) || in.length() == 0) // the header, or an empty line
                {
                    continue;
                }
                if (in.tooLong())
                {
                    System.err.printf("weir: line %,d of %s is longer than %,d bytes: not sent%n", line, input, InputLines.MAX_LINE_BYTES);
                    skipped++;
                    continue;
                }
                final byte[] value = Arrays.copyOfRange(in.bytes(), in.start(), in.start() + in.kept());
                final byte[] recordKey = keyField.of(in.text());
                if (recordKey == null)
                {
                    keyless++;
                }
                if (pacing != null)
                {
                    pacing.awaitNext();
                }
                producer.send(new ProducerRecord<>(topic, recordKey, value), (metadata, ex) ->
                {
                    if (ex != null)
                    {
                        failure.compareAndSet(null, ex);
                    }
                    else
                    {
                        sent.incrementAndGet();
                    }
                });
            }
            producer.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + input, ex);
        }
        if (failure.get() != null)
        {
            throw new IllegalStateException("sending to topic " + topic + " at " + bootstrap + " failed after " + sent.get() + " records", failure.get());
        }
        final double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("Sent %,d lines of %s to topic %s (%d partitions) at %s in %.1f s (%,.0f lines/s), keyed by %s%s%s.%n",
            sent.get(), input, topic, topicPartitions, bootstrap, seconds, sent.get() / Math.max(seconds, 1e-3), key,
            keyless > 0 ? String.format("; %,d without a key (their %s field could not be found: weir run rejects them)", keyless, key) : "",
            skipped > 0 ? String.format("; %,d lines longer than %,d bytes not sent", skipped, InputLines.MAX_LINE_BYTES) : "");
        return 0;
    }

    /**
     * @return true if the input's first line is the columns' header (not sent); false if it is an event line.
     * @throws BadInputException if it is the header of other columns.
     */
    private boolean startsWithHeader(final JournalSchema schema)
    {
        final String first;
        try (InputLines in = new InputLines(Files.newInputStream(input)))
        {
            first = in.next() ? in.text() : null;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + input, ex);
        }
        if (first == null)
        {
            return false;
        }
        final String header = schema.csvHeader();
        if (header.equals(first.trim()))
        {
            return true;
        }
        if (first.startsWith("event_id,"))
        {
            throw new BadInputException(input + " starts with the header '" + first.trim() + "', not '" + header + "' of the columns " + schema
                + " (give --columns to match the file)");
        }
        return false;
    }

    private static Properties producerProperties(final String bootstrap)
    {
        final Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return properties;
    }
}
