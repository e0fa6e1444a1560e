package dev.weir.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.weir.csv.CsvInputException;
import dev.weir.csv.InputLines;
import dev.weir.csv.KeyField;
import dev.weir.csv.TableCsvParser;
import dev.weir.journal.schema.ColumnType;
import dev.weir.journal.schema.TableDefinition;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Sends the rows of a table CSV to <b>every partition</b> of a Kafka topic, for a {@link KafkaRun} that declares the
 * table to join ({@code weir produce --table}): a row applies to the events after it in its partition, so a row meant
 * for every key must be in every partition ({@link TableRecords}).
 * <p>
 * The file is read as {@code weir ingest --table} reads it: a first line that is the table's header
 * ({@code event_time}, its columns, optionally {@code op}), then one row per line, each checked by
 * {@link TableCsvParser}. Each valid row is sent once to each partition: the value is the line, ending with the
 * {@code op} field ({@code ,} is appended if the file has no {@code op} column), the header {@link TableRecords#HEADER}
 * is the table's name, the key is the row's key text (its key columns' texts joined by commas, as {@link KeyField}
 * writes them). An empty line is skipped; an invalid line or one longer than {@link InputLines#MAX_LINE_BYTES} is not
 * sent and is told to the caller with its number and reason. A last line without a line terminator is sent (the file
 * is taken as complete). The producer is idempotent with {@code acks=all}; {@link #send} returns once every record is
 * acknowledged. Not exactly-once across calls: sending a file twice sends its rows twice.
 * <p>
 * Everything that can be refused is refused by the constructor, before any connection. Thread-safety: one thread
 * calls {@link #createTopic} and {@link #send}; {@link #sent()} may be read from any thread.
 */
public final class TableProducer
{
    private final String bootstrap;
    private final String topic;
    private final Path input;
    private final TableDefinition table;
    private final boolean withOp;
    private final KeyField keyField;
    private final AtomicLong sent = new AtomicLong();

    /** Told each line that is not sent. */
    @FunctionalInterface
    public interface BadLine
    {
        /**
         * @param line   the line's number, from 1 (the header is line 1).
         * @param reason why it is not sent.
         */
        void notSent(long line, String reason);
    }

    /**
     * What one {@link #send} did.
     *
     * @param rows       the rows sent, each to every partition.
     * @param records    the records sent and acknowledged: rows times partitions.
     * @param partitions the topic's partitions.
     * @param notSent    the lines not sent: invalid or too long.
     * @param nanos      the time the sending took.
     */
    public record Sent(long rows, long records, int partitions, long notSent, long nanos)
    {
    }

    /**
     * @param bootstrap the brokers, {@code host:port[,host:port...]}.
     * @param topic     the topic.
     * @param input     the table CSV, starting with the table's header, optionally followed by {@code ,op}.
     * @param table     the table.
     * @throws IllegalArgumentException if the servers are not {@code HOST:PORT}, the topic has no name or the table has a
     *                                  column named {@code op}.
     * @throws CsvInputException        if the file does not exist or does not start with the table's header.
     * @throws UncheckedIOException     if it cannot be read.
     */
    public TableProducer(final String bootstrap, final String topic, final Path input, final TableDefinition table)
    {
        TableCsvParser.checkColumns(table);
        if (topic.isBlank())
        {
            throw new IllegalArgumentException("a topic needs a name");
        }
        this.bootstrap = KafkaAddress.check(bootstrap);
        this.topic = topic;
        this.input = input;
        this.table = table;
        final int[] keyFields = new int[table.keySize()];
        final int[] scales = new int[table.keySize()];
        for (int k = 0; k < keyFields.length; k++)
        {
            final int column = table.keyColumn(k);
            keyFields[k] = 1 + column; // after event_time
            scales[k] = table.columns().column(column).type() == ColumnType.DECIMAL ? table.columns().column(column).scale() : -1;
        }
        this.keyField = new KeyField(keyFields, scales);
        if (!Files.isRegularFile(input))
        {
            throw new CsvInputException("input file not found: " + input);
        }
        this.withOp = headerHasOp(input, table);
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
     * Send every valid row of the file to every partition of the topic, then wait until each record is acknowledged.
     *
     * @param rate    the pace of the records sent, or null to send as fast as the broker takes them.
     * @param notSent told each line not sent (invalid or too long), on this thread.
     * @return what was sent.
     * @throws IllegalStateException if a send failed (the records before it may have been sent).
     * @throws UncheckedIOException  if the file cannot be read.
     */
    public Sent send(final SendRate rate, final BadLine notSent)
    {
        final AtomicReference<Exception> failure = new AtomicReference<>();
        final long started = System.nanoTime();
        final long before = sent.get();
        final TableCsvParser parser = new TableCsvParser(table, withOp);
        final RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader(TableRecords.HEADER, table.name().getBytes(StandardCharsets.UTF_8)));
        headers.setReadOnly();
        long rows = 0;
        long skipped = 0;
        final int partitions;
        try (InputLines in = new InputLines(Files.newInputStream(input));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(CsvProducer.producerProperties(bootstrap)))
        {
            partitions = producer.partitionsFor(topic).size();
            in.next(); // the header, checked by the constructor
            long line = 1;
            while (in.next() && failure.get() == null)
            {
                line++;
                if (in.length() == 0)
                {
                    continue;
                }
                if (in.tooLong())
                {
                    notSent.notSent(line, "longer than " + InputLines.MAX_LINE_BYTES + " bytes");
                    skipped++;
                    continue;
                }
                final String reason = parser.parse(in.bytes(), in.start(), in.start() + in.kept());
                if (reason != null)
                {
                    notSent.notSent(line, reason);
                    skipped++;
                    continue;
                }
                final byte[] value = withOp ? Arrays.copyOfRange(in.bytes(), in.start(), in.start() + in.kept()) : withComma(in);
                final byte[] key = keyField.of(parser.text());
                rows++;
                for (int partition = 0; partition < partitions; partition++)
                {
                    if (rate != null)
                    {
                        rate.awaitNext();
                    }
                    producer.send(new ProducerRecord<>(topic, partition, key, value, headers), (metadata, ex) ->
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
        return new Sent(rows, sent.get() - before, partitions, skipped, System.nanoTime() - started);
    }

    /**
     * @return the records acknowledged so far, over every {@link #send} (any thread).
     */
    public long sent()
    {
        return sent.get();
    }

    /** @return true if the file's header ends with the {@code op} column. */
    public boolean withOp()
    {
        return withOp;
    }

    private static byte[] withComma(final InputLines in)
    {
        final byte[] value = Arrays.copyOfRange(in.bytes(), in.start(), in.start() + in.kept() + 1);
        value[in.kept()] = ',';
        return value;
    }

    /**
     * @return true if the input's header ends with the {@code op} column.
     * @throws CsvInputException if its first line is not the table's header.
     */
    private static boolean headerHasOp(final Path input, final TableDefinition table)
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
        final String expected = TableCsvParser.header(table);
        final String found = first == null ? null : first.trim();
        if (expected.equals(found) || (expected + "," + TableCsvParser.OP).equals(found))
        {
            return found.length() > expected.length();
        }
        throw new CsvInputException(input + " does not start with the header '" + expected + "' (optionally followed by ',op') of table "
            + table.name() + "; its first line is " + (first == null ? "missing or not valid UTF-8" : "'" + first + "'"));
    }
}
