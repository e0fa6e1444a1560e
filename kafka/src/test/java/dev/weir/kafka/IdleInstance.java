package dev.weir.kafka;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A child JVM's instance for {@link KafkaIdleTimeoutTest}: runs {@link KafkaIdleTimeoutTest#settings} until killed.
 * Arguments: bootstrap, topic, output topic, instance id, journal directory.
 */
final class IdleInstance
{
    private IdleInstance()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final KafkaRun run = new KafkaRun(KafkaIdleTimeoutTest.settings(args[0], args[1], args[2], args[3], Path.of(args[4]))).start();
        System.out.println("started");
        while (!run.awaitEnd(Duration.ofSeconds(1)))
        {
            System.out.println(run.status());
        }
        System.out.println("ended: " + run.failure());
        System.exit(run.failure() == null ? 0 : 1);
    }
}
