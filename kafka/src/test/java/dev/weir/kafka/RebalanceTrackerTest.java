package dev.weir.kafka;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The periodic commit waits while the consumer rejoins its group: from the assignor's subscription (the JoinGroup
 * request) to its assignment (the new generation known), unless the open transaction is half as old as its timeout.
 * The tracking assignor is Kafka's cooperative sticky one under the same name.
 */
final class RebalanceTrackerTest
{
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aJoinDefersTheCommitUntilTheAssignmentIsKnown()
    {
        final RebalanceTracker tracker = new RebalanceTracker(Duration.ofSeconds(10));
        final TrackingAssignor assignor = new TrackingAssignor();
        assignor.configure(Map.of(TrackingAssignor.TRACKER, tracker));
        assertFalse(tracker.defersCommit(0), "no join yet");
        assignor.subscriptionUserData(Set.of("t"));
        assertTrue(tracker.joining());
        assertTrue(tracker.defersCommit(0));
        assertTrue(tracker.defersCommit(5 * SECOND - 1), "younger than half the timeout");
        assertFalse(tracker.defersCommit(5 * SECOND), "half the timeout: committed anyway");
        assignor.onAssignment(new ConsumerPartitionAssignor.Assignment(List.of(new TopicPartition("t", 0))),
            new ConsumerGroupMetadata("g", 2, "m", java.util.Optional.empty()));
        assertFalse(tracker.joining());
        assertFalse(tracker.defersCommit(0), "the join ended");
    }

    @Test
    void theTrackingAssignorIsTheCooperativeStickyOneWithOrWithoutATracker()
    {
        final TrackingAssignor assignor = new TrackingAssignor();
        assignor.configure(Map.of());
        final CooperativeStickyAssignor plain = new CooperativeStickyAssignor();
        assertEquals(plain.name(), assignor.name());
        assertEquals(plain.supportedProtocols(), assignor.supportedProtocols());
        final ByteBuffer data = assignor.subscriptionUserData(Set.of("t"));
        assertEquals(plain.subscriptionUserData(Set.of("t")), data, "the same subscription data (the generation)");
    }
}
