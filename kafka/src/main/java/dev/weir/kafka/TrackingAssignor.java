package dev.weir.kafka;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.Configurable;

/**
 * Kafka's cooperative sticky assignor (same name, same assignments, so instances with and without it share a
 * group), which also tells the instance's {@link RebalanceTracker} when its consumer asks to join the group and
 * when it has learnt its assignment. The consumer makes it from its class name and hands it the consumer's
 * configuration, where {@link KafkaClients} put the tracker under {@link #TRACKER}. Without a tracker there it is
 * the plain cooperative sticky assignor.
 * <p>
 * Public only because the consumer instantiates it by reflection; not part of Weir's API.
 * <p>
 * Thread-safety: called by the consumer inside {@code poll}, on the thread that polls.
 */
public final class TrackingAssignor extends CooperativeStickyAssignor implements Configurable
{
    /** The consumer configuration's key for the {@link RebalanceTracker}. */
    static final String TRACKER = "weir.rebalance.tracker";

    private RebalanceTracker tracker;

    /** Made by the consumer. */
    public TrackingAssignor()
    {
    }

    @Override
    public void configure(final Map<String, ?> configs)
    {
        final Object value = configs.get(TRACKER);
        tracker = value instanceof RebalanceTracker t ? t : null;
    }

    @Override
    public ByteBuffer subscriptionUserData(final Set<String> topics)
    {
        if (tracker != null)
        {
            tracker.joinBegins(); // the consumer builds its JoinGroup request
        }
        return super.subscriptionUserData(topics);
    }

    @Override
    public void onAssignment(final Assignment assignment, final ConsumerGroupMetadata metadata)
    {
        super.onAssignment(assignment, metadata);
        if (tracker != null)
        {
            tracker.joinEnds(); // the consumer's group metadata has the new generation
        }
    }
}
