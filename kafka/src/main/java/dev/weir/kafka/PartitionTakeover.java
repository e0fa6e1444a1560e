package dev.weir.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import dev.weir.engine.resume.CheckpointMismatchException;
import org.apache.kafka.common.TopicPartition;

/**
 * How a partition is taken over from what is committed in Kafka: the group's newest checkpoints (checked against
 * the instance's {@link ResumeTerms}), the rows the previous owner committed to the output topic after the
 * partition's checkpoint (to be regenerated and verified, not sent again), and the highest offset whose rejection
 * it committed; from them, a new {@link PartitionTask}.
 * <p>
 * Not thread-safe: the instance's Kafka thread owns it.
 */
final class PartitionTakeover
{
    private final String outputTopic;
    private final String rejectedTopic;
    private final String sourceTopic;
    private final CheckpointTopic checkpoints;
    private final CommittedReader committed;
    private final ResumeTerms terms;

    /**
     * @param settings    what the instance runs with.
     * @param checkpoints the group's checkpoint topic.
     * @param committed   reads what is committed.
     * @param terms       what every checkpoint of the group must have been taken under.
     */
    PartitionTakeover(final KafkaRun.Settings settings, final CheckpointTopic checkpoints, final CommittedReader committed, final ResumeTerms terms)
    {
        this.outputTopic = settings.outputTopic();
        this.rejectedTopic = settings.rejectedTopic();
        this.sourceTopic = settings.topic();
        this.checkpoints = checkpoints;
        this.committed = committed;
        this.terms = terms;
    }

    /**
     * @return the newest checkpoint of each partition of the source topic that has one.
     * @throws CheckpointMismatchException if one was taken under other terms.
     */
    Map<Integer, PartitionCheckpoint> newestCheckpoints()
    {
        final Map<Integer, PartitionCheckpoint> newest = checkpoints.readNewest(committed, sourceTopic);
        terms.check(newest.values());
        return newest;
    }

    /**
     * @param context    what the task is built with.
     * @param partition  the partition taken over.
     * @param checkpoint its newest checkpoint, or null.
     * @return its task, ready to run.
     */
    PartitionTask take(final PartitionTask.Context context, final TopicPartition partition, final PartitionCheckpoint checkpoint)
    {
        final NavigableMap<Long, PartitionTask.CommittedRow> rows = new TreeMap<>();
        final String source = partition.topic() + ":" + partition.partition();
        final long after = checkpoint == null ? 0 : checkpoint.outputs();
        committed.read(new TopicPartition(outputTopic, partition.partition() % context.outputPartitions()),
            checkpoint == null ? 0 : checkpoint.outputsFrom(), record ->
            {
                if (source.equals(OutputHeaders.text(record.headers(), OutputHeaders.SOURCE)))
                {
                    final long sequence = OutputHeaders.number(record.headers(), OutputHeaders.SEQUENCE);
                    if (sequence > after)
                    {
                        rows.put(sequence, new PartitionTask.CommittedRow(new String(record.value(), StandardCharsets.UTF_8), record.offset()));
                    }
                }
            });
        final long[] rejectedThrough = {checkpoint == null ? -1 : checkpoint.rejectedThrough()};
        committed.read(new TopicPartition(rejectedTopic, partition.partition() % context.rejectedPartitions()),
            checkpoint == null ? 0 : checkpoint.rejectsFrom(), record ->
            {
                if (source.equals(OutputHeaders.text(record.headers(), OutputHeaders.SOURCE)))
                {
                    rejectedThrough[0] = Math.max(rejectedThrough[0], OutputHeaders.number(record.headers(), OutputHeaders.OFFSET));
                }
            });
        return new PartitionTask(context, partition, new PartitionTask.Start(checkpoint, rows, rejectedThrough[0]));
    }
}
