package dev.weir.peers;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * End-to-end latency of any windowed job that reads events CSV lines from topic T and writes rows starting
 * {@code window_start,window_end,key,...} to topic O (Kafka Streams' {@link KafkaStreamsWindows}, {@code weir run
 * --kafka}). It produces to T at a fixed offered rate, for a given time, records keyed by card whose
 * {@code event_time} is the wall clock (ms) at produce, so events arrive in order and a window can close the moment a
 * record with {@code event_time >= window_end + out-of-orderness} is produced, that is at wall-clock time
 * {@code window_end + out-of-orderness}. A {@code read_committed} consumer of O (all partitions, from their end at
 * the start) notes when each row arrives (a window's rows of all keys usually arrive in one transaction, so the
 * percentiles are those of about as many samples as windows: the summary says how many); a row's latency is its arrival minus {@code window_end +
 * out-of-orderness}: the wait for the watermark is not counted, the engine's processing, its commit interval and
 * transaction, and the consumer's fetch are. Rows of windows ending in the warm-up, or that could close only after
 * the producing stopped, are not counted. Prints the count and the 50th, 90th, 99th, 99.9th percentile and the
 * maximum in ms, and the offered and achieved rates, to standard output.
 *
 * <p>Usage: {@code LatencyProbe BOOTSTRAP T O [--rate PER_S] [--seconds S] [--warmup-seconds S] [--keys K]
 * [--window-ms MS] [--ooo-ms MS] [--drain-ms MS] [--rows-file FILE]} (defaults 20,000/s, 90 s, 30 s, 1,000 keys,
 * 1,000 ms, 200 ms, 10,000 ms; the rows file gets {@code window_end,arrival_ms,latency_ms,measured} per row); the window and out-of-orderness must be the job's. One producer thread, one consumer thread. A tool,
 * not a library.
 */
public final class LatencyProbe
{
    private long[] windowEnds = new long[1 << 16];
    private long[] arrivals = new long[1 << 16];
    private int rows;
    private volatile boolean stop;

    private LatencyProbe()
    {
    }

    /**
     * @param args see the class description.
     * @throws InterruptedException if interrupted.
     * @throws IOException if the rows file cannot be written.
     */
    public static void main(final String[] args) throws InterruptedException, IOException
    {
        if (args.length < 3)
        {
            System.err.println("usage: LatencyProbe BOOTSTRAP T O [--rate PER_S] [--seconds S] [--warmup-seconds S]"
                + " [--keys K] [--window-ms MS] [--ooo-ms MS] [--drain-ms MS] [--rows-file FILE]");
            System.exit(2);
        }
        long rate = 20_000;
        long seconds = 90;
        long warmupSeconds = 30;
        int keys = 1_000;
        long windowMs = 1_000;
        long oooMs = 200;
        long drainMs = 10_000;
        String rowsFile = null;
        for (int i = 3; i + 1 < args.length; i += 2)
        {
            if ("--rows-file".equals(args[i]))
            {
                rowsFile = args[i + 1];
                continue;
            }
            final long v = Long.parseLong(args[i + 1]);
            switch (args[i])
            {
                case "--rate" -> rate = v;
                case "--seconds" -> seconds = v;
                case "--warmup-seconds" -> warmupSeconds = v;
                case "--keys" -> keys = (int) v;
                case "--window-ms" -> windowMs = v;
                case "--ooo-ms" -> oooMs = v;
                case "--drain-ms" -> drainMs = v;
                default ->
                {
                    System.err.println("LatencyProbe: unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        new LatencyProbe().run(args[0], args[1], args[2], rate, seconds, warmupSeconds, keys, windowMs, oooMs, drainMs, rowsFile);
    }

    private void run(final String bootstrap, final String input, final String output, final long rate, final long seconds,
        final long warmupSeconds, final int keys, final long windowMs, final long oooMs, final long drainMs,
        final String rowsFile) throws InterruptedException, IOException
    {
        final KafkaConsumer<String, String> consumer = OutputWatch.committedReader(bootstrap);
        final List<TopicPartition> partitions = new ArrayList<>();
        for (final PartitionInfo info : consumer.partitionsFor(output))
        {
            partitions.add(new TopicPartition(output, info.partition()));
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // fix the start now: rows already in O are not this run's
        final Thread reader = new Thread(() -> read(consumer), "latency-reader");
        reader.start();

        final Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 600_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 60_000);
        final SplittableRandom random = new SplittableRandom(42);
        final SendFailures failures = new SendFailures();
        final long startMs;
        final long endMs;
        long sent = 0;
        long behindMs = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p))
        {
            producer.partitionsFor(input); // metadata before the clock starts
            final long startNs = System.nanoTime();
            startMs = System.currentTimeMillis();
            final long total = rate * seconds;
            while (sent < total)
            {
                final long elapsedNs = System.nanoTime() - startNs;
                final long due = Math.min(total, elapsedNs * rate / 1_000_000_000L);
                if (sent >= due)
                {
                    LockSupport.parkNanos(100_000);
                    continue;
                }
                behindMs = Math.max(behindMs, (due - sent) * 1000 / rate);
                while (sent < due)
                {
                    final String key = String.format("card-%04d", random.nextInt(keys) + 1);
                    final long now = System.currentTimeMillis();
                    producer.send(new ProducerRecord<>(input, key, sent + "," + now + "," + key + "," + random.nextInt(100_000)), failures);
                    sent++;
                }
            }
            producer.flush();
            endMs = System.currentTimeMillis();
        }
        if (failures.count() > 0)
        {
            System.err.printf("LatencyProbe: %d records were not written to %s; the first failure: %s%n", failures.count(),
                input, failures.first());
        }
        Thread.sleep(drainMs);
        stop = true;
        reader.join();

        final long from = startMs + warmupSeconds * 1000;
        final long[] delays = new long[rows];
        int n = 0;
        long firstWindow = Long.MAX_VALUE;
        long lastWindow = Long.MIN_VALUE;
        for (int i = 0; i < rows; i++)
        {
            final long closable = windowEnds[i] + oooMs;
            if (windowEnds[i] >= from && closable <= endMs)
            {
                delays[n++] = arrivals[i] - closable;
                firstWindow = Math.min(firstWindow, windowEnds[i]);
                lastWindow = Math.max(lastWindow, windowEnds[i]);
            }
        }
        if (rowsFile != null)
        {
            try (Writer out = Files.newBufferedWriter(Path.of(rowsFile), StandardCharsets.UTF_8))
            {
                out.write("window_end,arrival_ms,latency_ms,measured\n");
                for (int i = 0; i < rows; i++)
                {
                    final long closable = windowEnds[i] + oooMs;
                    out.write(windowEnds[i] + "," + arrivals[i] + "," + (arrivals[i] - closable) + ","
                        + (windowEnds[i] >= from && closable <= endMs) + "\n");
                }
            }
        }
        Arrays.sort(delays, 0, n);
        final double achieved = sent * 1000.0 / Math.max(1, endMs - startMs);
        System.out.printf("offered %d records/s for %d s (achieved %.0f/s, at most %d ms behind schedule), %d keys,"
            + " tumbling %d ms, out-of-orderness %d ms, warm-up %d s, %d sends failed%n", rate, seconds, achieved, behindMs, keys,
            windowMs, oooMs, warmupSeconds, failures.count());
        if (n == 0)
        {
            System.out.printf("latency: no row measured (%d rows arrived in all)%n", rows);
            System.exit(1);
        }
        System.out.printf("latency: rows=%d p50=%d p90=%d p99=%d p99.9=%d max=%d ms (windows=%d, of %d rows arrived)%n", n,
            delays[percentile(n, 0.50)], delays[percentile(n, 0.90)], delays[percentile(n, 0.99)],
            delays[percentile(n, 0.999)], delays[n - 1], (lastWindow - firstWindow) / windowMs + 1, rows);
    }

    private static int percentile(final int n, final double q)
    {
        return Math.min(n - 1, (int) Math.ceil(q * n) - 1);
    }

    private void read(final KafkaConsumer<String, String> consumer)
    {
        try (consumer)
        {
            while (!stop)
            {
                for (final ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(20)))
                {
                    final long now = System.currentTimeMillis();
                    final String row = record.value();
                    final int c1 = row.indexOf(',');
                    final int c2 = row.indexOf(',', c1 + 1);
                    if (rows == windowEnds.length)
                    {
                        windowEnds = Arrays.copyOf(windowEnds, rows * 2);
                        arrivals = Arrays.copyOf(arrivals, rows * 2);
                    }
                    windowEnds[rows] = Long.parseLong(row.substring(c1 + 1, c2));
                    arrivals[rows] = now;
                    rows++;
                }
            }
        }
    }
}
