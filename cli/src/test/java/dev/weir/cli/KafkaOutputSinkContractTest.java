package dev.weir.cli;

import java.time.Duration;
import java.util.List;

import dev.weir.test.kafka.KafkaTestBroker;
import dev.weir.test.kafka.TopicRecord;

/**
 * The {@link OutputSinkContract} of {@link dev.weir.kafka.KafkaOutputSink}: the keys and values of a one-partition
 * topic of the test's own, in offset order, read committed (the shared broker).
 */
class KafkaOutputSinkContractTest extends OutputSinkContract
{
    @Override
    String kind()
    {
        return "kafka";
    }

    @Override
    String target(final String name)
    {
        return KafkaTestBroker.bootstrap() + "/" + KafkaTestBroker.createTopic("sink-contract-" + name, 1);
    }

    /** Reads one record more than the output journal holds, so a row written twice is seen (the quiet bounds only that wait). */
    @Override
    List<String> delivered(final String target, final long outputs)
    {
        return KafkaTestBroker.readCommitted(target.substring(target.indexOf('/') + 1), (int)outputs + 1, Duration.ofSeconds(5)).stream()
            .map(r -> r.key() + " " + r.value()).toList();
    }
}
