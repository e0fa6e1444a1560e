package dev.weir.kafka;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import dev.weir.engine.CheckpointPayload;
import dev.weir.engine.resume.CheckpointMismatchException;
import dev.weir.journal.schema.TableDefinition;

/**
 * What every checkpoint of a group must have been taken under for an instance to take partitions over from them:
 * the instance's pipeline configuration (window, lateness, key, value, filter: the string an engine checkpoint
 * records), and the partition counts of the output and rejected topics (partition P's rows go to partition
 * P mod count, where a takeover looks for the rows committed after a checkpoint). All of the group's checkpoints
 * of the topic are checked, not only those of the partitions being taken over, so that a partition never
 * checkpointed is not run under other terms either. A checkpoint written before the counts were recorded (format
 * version 1) is checked for its configuration only.
 * <p>
 * Immutable; thread-safe.
 */
final class ResumeTerms
{
    private final String group;
    private final String topic;
    private final String configuration;
    private final List<TableDefinition> tables;
    private final String outputTopic;
    private final int outputPartitions;
    private final String rejectedTopic;
    private final int rejectedPartitions;

    /**
     * @param group              the consumer group.
     * @param topic              the source topic.
     * @param configuration      the configuration string of this instance's pipelines.
     * @param outputTopic        the output topic.
     * @param outputPartitions   its partition count now.
     * @param rejectedTopic      the rejected topic.
     * @param rejectedPartitions its partition count now.
     */
    ResumeTerms(final String group, final String topic, final String configuration, final String outputTopic, final int outputPartitions,
        final String rejectedTopic, final int rejectedPartitions)
    {
        this(group, topic, configuration, outputTopic, outputPartitions, rejectedTopic, rejectedPartitions, List.of());
    }

    /**
     * The same terms, with the instance's reference tables: a checkpoint that holds rows of a table holds them as
     * that table's definition reads them, so the instance must declare the same table.
     */
    ResumeTerms(final String group, final String topic, final String configuration, final String outputTopic, final int outputPartitions,
        final String rejectedTopic, final int rejectedPartitions, final List<TableDefinition> tables)
    {
        this.tables = List.copyOf(tables);
        this.group = group;
        this.topic = topic;
        this.configuration = configuration;
        this.outputTopic = outputTopic;
        this.outputPartitions = outputPartitions;
        this.rejectedTopic = rejectedTopic;
        this.rejectedPartitions = rejectedPartitions;
    }

    /**
     * @param checkpoints the group's newest checkpoint of each partition of the topic.
     * @throws CheckpointMismatchException naming what differs and what to do, if one was taken under other terms.
     */
    void check(final Collection<PartitionCheckpoint> checkpoints)
    {
        for (final PartitionCheckpoint checkpoint : checkpoints.stream().sorted(Comparator.comparingInt(PartitionCheckpoint::partition)).toList())
        {
            final String taken = CheckpointPayload.of(checkpoint.engine()).configuration();
            if (!taken.equals(configuration))
            {
                throw new CheckpointMismatchException("group " + group + " was run on " + topic + " with [" + taken + "], not [" + configuration
                    + "]: nothing was processed; restart it with the same flags, or run the new configuration as a new --group"
                    + " (it reads " + topic + " from its beginning; give it a new --output-topic too, or its rows mix with the old group's)");
            }
            refuseOtherTables(checkpoint);
            refuseOtherCount(checkpoint, "output", outputTopic, checkpoint.outputPartitions(), outputPartitions);
            refuseOtherCount(checkpoint, "rejected", rejectedTopic, checkpoint.rejectedPartitions(), rejectedPartitions);
        }
    }

    private void refuseOtherTables(final PartitionCheckpoint checkpoint)
    {
        for (final TableDefinition then : checkpoint.tables().definitions())
        {
            final TableDefinition now = tables.stream().filter(t -> t.name().equals(then.name())).findFirst().orElse(null);
            if (now == null || !now.sameAs(then))
            {
                throw new CheckpointMismatchException("group " + group + " checkpointed " + topic + ":" + checkpoint.partition()
                    + " with the table [" + then.text() + "], but this instance declares " + (now == null ? "no table " + then.name()
                    : "[" + now.text() + "]") + ": its checkpoints hold the table's rows as that definition reads them; nothing was "
                    + "processed. Restart with the same table, or run the new one as a new --group with a new --output-topic");
            }
        }
    }

    private void refuseOtherCount(final PartitionCheckpoint checkpoint, final String what, final String name, final int then, final int now)
    {
        if (then > 0 && then != now)
        {
            throw new CheckpointMismatchException("the " + what + " topic " + name + " has " + now + " partitions, but group " + group
                + " checkpointed " + topic + ":" + checkpoint.partition() + " when it had " + then + ": a partition's " + what
                + " records are in partition P mod " + then + ", and a takeover would look for them in P mod " + now
                + " and could send them twice; nothing was processed. To go on, start a new --group with a new --" + what
                + "-topic (it reads " + topic + " from its beginning)");
        }
    }
}
