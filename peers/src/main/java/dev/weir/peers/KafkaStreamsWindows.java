package dev.weir.peers;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Weir's windowed job in Kafka Streams 4.4, for {@code benchmarks/kafka-peers.sh}: reads topic T (values are events
 * CSV lines {@code event_id,event_time,key,value}, record key = the line's key), takes the event time from the line
 * ({@link CsvEventTime}; lines Weir would reject are dropped), counts, sums and takes the min and max of the values
 * per key in tumbling windows of the given size with a grace period of the given out-of-orderness, suppresses
 * until the window closes (one final row per key and window, like Weir's rows without early firing), and writes
 * {@code window_start,window_end,key,count,sum,min,max} (key = the key) to topic O, with
 * {@code processing.guarantee=exactly_once_v2}.
 *
 * <p>A window closes when its task's stream time (the largest event time seen on that input partition) reaches
 * its end plus the grace period, so each partition's last windows close only when a later record arrives on that
 * partition: the producer ends every partition with a far-future record. Events later than the grace period are
 * dropped by Kafka Streams (Weir would count them as late events; only the result rows are compared). Topic O must
 * exist (the test broker does not create topics); the internal store and changelog topics are Kafka Streams' own.
 *
 * <p>Usage: {@code KafkaStreamsWindows BOOTSTRAP T O WINDOW_MS OUT_OF_ORDERNESS_MS [--commit-interval MS]
 * [--threads N] [--application-id ID] [--state-dir DIR]} (defaults 100 ms, 1 thread, {@code weir-peers-streams},
 * the JVM's temporary directory). Runs until SIGTERM or SIGINT, then closes Kafka Streams (its last transaction
 * committed or aborted). Prints its state changes to standard error ({@code streams: state RUNNING} ...). A tool,
 * not a library.
 */
public final class KafkaStreamsWindows
{
    private KafkaStreamsWindows()
    {
    }

    /**
     * @param args see the class description.
     * @throws InterruptedException if interrupted while waiting for the end.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        if (args.length < 5)
        {
            System.err.println("usage: KafkaStreamsWindows BOOTSTRAP T O WINDOW_MS OUT_OF_ORDERNESS_MS"
                + " [--commit-interval MS] [--threads N] [--application-id ID] [--state-dir DIR]");
            System.exit(2);
        }
        final String bootstrap = args[0];
        final String input = args[1];
        final String output = args[2];
        final long windowMs = Long.parseLong(args[3]);
        final long oooMs = Long.parseLong(args[4]);
        long commitMs = 100;
        int threads = 1;
        String applicationId = "weir-peers-streams";
        String stateDir = System.getProperty("java.io.tmpdir") + "/weir-peers-streams";
        for (int i = 5; i + 1 < args.length; i += 2)
        {
            switch (args[i])
            {
                case "--commit-interval" -> commitMs = Long.parseLong(args[i + 1]);
                case "--threads" -> threads = Integer.parseInt(args[i + 1]);
                case "--application-id" -> applicationId = args[i + 1];
                case "--state-dir" -> stateDir = args[i + 1];
                default ->
                {
                    System.err.println("KafkaStreamsWindows: unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }

        final Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitMs);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        p.put(StreamsConfig.DEFAULT_TIMESTAMP_EXTRACTOR_CLASS_CONFIG, CsvEventTime.class);

        final StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
            .mapValues(PaymentLine::value)
            .groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
            .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(windowMs), Duration.ofMillis(oooMs)))
            .aggregate(() -> WindowAggregate.EMPTY, (key, value, aggregate) -> aggregate.add(value),
                Materialized.<String, WindowAggregate, WindowStore<Bytes, byte[]>>as("weir-window")
                    .withKeySerde(Serdes.String()).withValueSerde(WindowAggregate.SERDE))
            .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
            .toStream()
            .map((window, a) -> KeyValue.pair(window.key(), window.window().start() + "," + window.window().end() + ","
                + window.key() + "," + a.count() + "," + a.sum() + "," + a.min() + "," + a.max()))
            .to(output, Produced.with(Serdes.String(), Serdes.String()));

        final KafkaStreams streams = new KafkaStreams(builder.build(), p);
        final CountDownLatch done = new CountDownLatch(1);
        streams.setStateListener((now, before) ->
        {
            System.err.println("streams: state " + now + " at " + System.currentTimeMillis());
            if (now == KafkaStreams.State.NOT_RUNNING || now == KafkaStreams.State.ERROR)
            {
                done.countDown();
            }
        });
        streams.setUncaughtExceptionHandler(ex ->
        {
            System.err.println("streams: failed: " + ex);
            ex.printStackTrace();
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        final Thread closer = new Thread(() ->
        {
            streams.close(Duration.ofSeconds(30));
            done.countDown();
        }, "streams-closer");
        Runtime.getRuntime().addShutdownHook(closer);
        System.err.printf("streams: %s -> %s, tumbling %d ms, grace %d ms, exactly_once_v2, commit %d ms, %d thread(s),"
            + " application.id %s, start at %d%n", input, output, windowMs, oooMs, commitMs, threads, applicationId,
            System.currentTimeMillis());
        streams.start();
        done.await();
        if (streams.state() == KafkaStreams.State.ERROR)
        {
            System.exit(1);
        }
    }
}
