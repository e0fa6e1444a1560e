package dev.weir.peers;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates or deletes the benchmark's topics (the test broker creates none by itself).
 *
 * <p>Usage: {@code KafkaTopics BOOTSTRAP create NAME PARTITIONS [KEY=VALUE ...]} (topic configs, replication factor
 * 1) or {@code KafkaTopics BOOTSTRAP delete NAME ...} (only topics the caller created; one that does not exist is
 * reported, not an error). A tool, not a library.
 */
public final class KafkaTopics
{
    private KafkaTopics()
    {
    }

    /**
     * @param args see the class description.
     * @throws ExecutionException if the broker refuses.
     * @throws InterruptedException if interrupted.
     */
    public static void main(final String[] args) throws ExecutionException, InterruptedException
    {
        if (args.length < 3 || !("create".equals(args[1]) && args.length >= 4 || "delete".equals(args[1])))
        {
            System.err.println("usage: KafkaTopics BOOTSTRAP create NAME PARTITIONS [KEY=VALUE ...] | BOOTSTRAP delete NAME ...");
            System.exit(2);
        }
        final Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        try (Admin admin = Admin.create(p))
        {
            if ("create".equals(args[1]))
            {
                final Map<String, String> configs = new HashMap<>();
                for (int i = 4; i < args.length; i++)
                {
                    final int eq = args[i].indexOf('=');
                    configs.put(args[i].substring(0, eq), args[i].substring(eq + 1));
                }
                admin.createTopics(List.of(new NewTopic(args[2], Integer.parseInt(args[3]), (short) 1).configs(configs)))
                    .all().get();
            }
            else
            {
                for (final Map.Entry<String, KafkaFuture<Void>> deleted
                    : admin.deleteTopics(List.of(args).subList(2, args.length)).topicNameValues().entrySet())
                {
                    try
                    {
                        deleted.getValue().get();
                    }
                    catch (final ExecutionException ex)
                    {
                        if (!(ex.getCause() instanceof UnknownTopicOrPartitionException))
                        {
                            throw ex;
                        }
                        System.err.println("KafkaTopics: no topic " + deleted.getKey() + " to delete");
                    }
                }
            }
        }
    }
}
