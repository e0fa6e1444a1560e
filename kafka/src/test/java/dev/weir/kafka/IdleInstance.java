package dev.weir.kafka;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A child JVM's instance for {@link KafkaIdleTimeoutTest}: runs {@link KafkaIdleTimeoutTest#settings} until killed.
 * Arguments: bootstrap, topic, output topic, instance id, journal directory, commit interval (ms).
 */
final class IdleInstance
{
    private IdleInstance()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final KafkaRun.Settings s = KafkaIdleTimeoutTest.settings(args[0], args[1], args[2], args[3], Path.of(args[4]));
        final KafkaRun run = new KafkaRun(new KafkaRun.Settings(s.bootstrap(), s.topic(), s.group(), s.outputTopic(), s.rejectedTopic(),
            s.instance(), s.journal(), s.schema(), s.rollCycle(), s.pipeline(), s.decoders(), s.rows(), Duration.ofMillis(Long.parseLong(args[5])),
            s.transactionTimeout(), s.sessionTimeout(), s.idleTimeout())).start();
        System.out.println("started");
        while (!run.awaitEnd(Duration.ofMillis(100)))
        {
            System.out.println(run.status());
        }
        System.out.println("ended: " + run.failure());
        System.exit(run.failure() == null ? 0 : 1);
    }
}
