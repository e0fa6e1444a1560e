package dev.weir.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.weir.kafka.KafkaAddress;
import dev.weir.kafka.RecordFormat;
import picocli.CommandLine.Option;

/**
 * The options of {@code weir run --kafka}: the cluster, the topics and the group an instance joins. Plain data,
 * set by picocli on the command's thread.
 */
final class KafkaOptions
{
    @Option(names = "--kafka", paramLabel = "HOST:PORT",
        description = "run over Apache Kafka instead of an input file: join consumer group --group on --topic, run a pipeline per owned "
            + "partition on a local journal under --journal, and commit the results to --output-topic, with the consumer offsets and "
            + "each partition's checkpoint, in Kafka transactions (exactly once for read_committed consumers)")
    String bootstrap;

    @Option(names = "--topic", paramLabel = "T", description = "with --kafka: the source topic; each record's value is one event "
        + "(see --record-format) and its key the event's key column")
    String topic;

    @Option(names = "--record-format", paramLabel = "csv|json", defaultValue = "csv",
        description = "with --kafka: csv, each record's value is one events CSV line (event_id,event_time, then the columns); json, one "
            + "JSON object with members event_id, event_time and the columns by name (others ignored; a missing or null member takes "
            + "its column's default) (default: ${DEFAULT-VALUE})")
    String recordFormat;

    @Option(names = "--group", paramLabel = "G", description = "with --kafka: the consumer group; its checkpoints go to the compacted topic G-weir-checkpoints")
    String group;

    @Option(names = "--output-topic", paramLabel = "O", description = "with --kafka: the results and late events (rows as --results and "
        + "--late-output write them; headers weir-source, weir-offset, weir-seq, weir-kind); created with T's partition count if missing")
    String outputTopic;

    @Option(names = "--rejected-topic", paramLabel = "R", description = "with --kafka: records that do not parse or whose key is not the "
        + "key column's text, with headers weir-source, weir-offset and weir-reason (default: O-rejected)")
    String rejectedTopic;

    @Option(names = "--instance", paramLabel = "ID", description = "with --kafka: this instance's id, the same across its restarts "
        + "(its transactional id is weir-G-ID; two live instances must not share one) (default: the host name)")
    String instance;

    @Option(names = "--commit-interval", paramLabel = "D", converter = Durations.class, defaultValue = "200ms",
        description = "with --kafka: time between transactions (default: ${DEFAULT-VALUE})")
    long commitIntervalMs;

    @Option(names = "--transaction-timeout", paramLabel = "D", converter = Durations.class, defaultValue = "10s",
        description = "with --kafka: how long a transaction left open by a killed instance holds read_committed readers back, "
            + "unless the instance restarts first (default: ${DEFAULT-VALUE})")
    long transactionTimeoutMs;

    @Option(names = "--session-timeout", paramLabel = "D", converter = Durations.class, defaultValue = "10s",
        description = "with --kafka: how long a killed instance keeps its partitions before the group moves them (default: ${DEFAULT-VALUE})")
    long sessionTimeoutMs;

    @Option(names = TableOption.FLAG, paramLabel = "NAME(KEY)=COLUMNS",
        description = "with --kafka: a reference table --join may join, e.g. 'cards(card)=card:string,home:string,limit:decimal(2)': "
            + "its rows are the records of --topic with header weir-table: NAME (weir produce --table sends them to every partition), "
            + "each applied to the events after it in its partition. Repeatable, one table each")
    List<String> tables = new ArrayList<>();

    boolean enabled()
    {
        return bootstrap != null;
    }

    /**
     * @param text the text of {@code --kafka}.
     * @return it, trimmed, as bootstrap servers ({@link KafkaAddress}).
     * @throws BadInputException if it is not {@code HOST:PORT[,HOST:PORT...]}: checked before any connection.
     */
    static String bootstrap(final String text)
    {
        try
        {
            return KafkaAddress.check(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadInputException("--kafka " + ex.getMessage());
        }
    }

    /**
     * @return the record format of {@code --record-format}.
     * @throws BadInputException if it is neither csv nor json.
     */
    RecordFormat recordFormat()
    {
        return switch (recordFormat)
        {
            case "csv" -> RecordFormat.CSV;
            case "json" -> RecordFormat.JSON;
            default -> throw new BadInputException("--record-format must be csv or json, not " + recordFormat);
        };
    }

    Duration commitInterval()
    {
        return Duration.ofMillis(commitIntervalMs);
    }
}
