package dev.weir.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

import dev.weir.csv.CsvInputException;
import dev.weir.csv.InputLines;
import dev.weir.csv.KeyField;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.JournalSchema;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sends the lines of an events CSV file to a Kafka topic, one record per line, for a {@link KafkaRun} to read
 * ({@code weir produce}): the value is the line as it is, the key the text of the line's key field ({@link KeyField}).
 * A first line that is the columns' header is not sent, empty lines are skipped, a line longer than
 * {@link InputLines#MAX_LINE_BYTES} is skipped and reported, and a line whose key field cannot be found is sent
 * without a key, so that the run rejects it with its partition and offset. The producer is idempotent with
 * {@code acks=all}; {@link #send} returns once every record is acknowledged. Not exactly-once across calls: sending
 * a file twice sends its lines twice.
 * <p>
 * Everything that can be refused is refused by the constructor, before any connection. Thread-safety: one thread
 * calls {@link #createTopic} and {@link #send}; {@link #sent()} may be read from any thread.
 */
public final class CsvProducer
{
    private final String bootstrap;
    private final String topic;
    private final Path input;
    private final boolean header;
    private final KeyField keyField;
    private final AtomicLong sent = new AtomicLong();

    /**
     * What one {@link #send} did.
     *
     * @param records the records sent and acknowledged.
     * @param keyless those of them sent without a key: their key field could not be found.
     * @param tooLong the lines not sent for being longer than {@link InputLines#MAX_LINE_BYTES}.
     * @param nanos   the time the sending took.
     */
    public record Sent(long records, long keyless, long tooLong, long nanos)
    {
    }

    /**
     * @param bootstrap the brokers, {@code host:port[,host:port...]}.
     * @param topic     the topic.
     * @param input     the events CSV: {@code event_id,event_time}, then one field per column; a first line that is
     *                  the columns' header is not sent.
     * @param schema    the events' columns.
     * @param keyColumn the key column whose text is each record's key, or the key columns joined by commas
     *                  ({@code "card,shop"}): their texts joined by commas are ({@link KeyField}).
     * @throws IllegalArgumentException if the servers are not {@code HOST:PORT}, the topic has no name or the key
     *                                  column is not one of the columns.
     * @throws CsvInputException        if the file does not exist or starts with the header of other columns.
     * @throws UncheckedIOException     if it cannot be read.
     */
    public CsvProducer(final String bootstrap, final String topic, final Path input, final JournalSchema schema, final String keyColumn)
    {
        final String[] names = keyColumn.split(",", -1);
        final int[] keyFields = new int[names.length];
        final int[] scales = new int[names.length];
        for (int k = 0; k < names.length; k++)
        {
            final int key = schema.indexOf(names[k].trim());
            if (key < 0)
            {
                throw new IllegalArgumentException(keyColumn + ": not one of the columns " + schema);
            }
            keyFields[k] = 2 + key;
            scales[k] = schema.column(key).type() == ColumnType.DECIMAL ? schema.column(key).scale() : -1;
        }
        if (topic.isBlank())
        {
            throw new IllegalArgumentException("a topic needs a name");
        }
        this.bootstrap = KafkaAddress.check(bootstrap);
        this.topic = topic;
        this.input = input;
        this.keyField = new KeyField(keyFields, scales);
        if (!Files.isRegularFile(input))
        {
            throw new CsvInputException("input file not found: " + input);
        }
        this.header = startsWithHeader(input, schema);
    }

    /**
     * Create the topic if it is missing.
     *
     * @param partitions its partitions if it is created.
     * @return its partitions: as asked if created, its own if it existed.
     * @throws IllegalArgumentException if partitions is below 1.
     * @throws IllegalStateException    if the broker cannot be reached within 30 s or refuses.
     */
    public int createTopic(final int partitions)
    {
        if (partitions < 1)
        {
            throw new IllegalArgumentException(partitions + ": a topic has at least one partition");
        }
        return new ProducedTopic(bootstrap, topic).ensure(partitions);
    }

    /**
     * Send every line of the file, then wait until each is acknowledged.
     *
     * @param rate    the pace of the sends, or null to send as fast as the broker takes them.
     * @param tooLong told the number (from 1) of each line not sent for being too long, on this thread.
     * @return what was sent.
     * @throws IllegalStateException if a send failed (the records before it may have been sent).
     * @throws UncheckedIOException  if the file cannot be read.
     */
    public Sent send(final SendRate rate, final LongConsumer tooLong)
    {
        final AtomicReference<Exception> failure = new AtomicReference<>();
        final long started = System.nanoTime();
        final long before = sent.get();
        long keyless = 0;
        long skipped = 0;
        try (InputLines in = new InputLines(Files.newInputStream(input));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProperties(bootstrap)))
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
                    tooLong.accept(line);
                    skipped++;
                    continue;
                }
                final byte[] value = Arrays.copyOfRange(in.bytes(), in.start(), in.start() + in.kept());
                final byte[] recordKey = keyField.of(in.text());
                if (recordKey == null)
                {
                    keyless++;
                }
                if (rate != null)
                {
                    rate.awaitNext();
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
            throw new IllegalStateException("sending to topic " + topic + " at " + bootstrap + " failed after " + (sent.get() - before) + " records",
                failure.get());
        }
        return new Sent(sent.get() - before, keyless, skipped, System.nanoTime() - started);
    }

    /**
     * @return the records acknowledged so far, over every {@link #send} (any thread).
     */
    public long sent()
    {
        return sent.get();
    }

    /**
     * @return true if the input's first line is the columns' header (not sent); false if it is an event line.
     * @throws CsvInputException if it is the header of other columns.
     */
    private static boolean startsWithHeader(final Path input, final JournalSchema schema)
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
            throw new CsvInputException(input + " starts with the header '" + first.trim() + "', not '" + header + "' of the columns " + schema
                + " (give --columns to match the file)");
        }
        return false;
    }

    static Properties producerProperties(final String bootstrap)
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
