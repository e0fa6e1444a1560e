package dev.weir.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

import dev.weir.journal.codec.EventDecoder;
import dev.weir.journal.codec.EventEncoder;
import dev.weir.journal.codec.EventShape;
import dev.weir.journal.codec.LateEventEncoder;
import dev.weir.journal.codec.OutputDecoder;
import dev.weir.journal.codec.ResultEncoder;

/**
 * Encoding and decoding the hot-path documents (event in the default shape and in a six-column one,
 * result, late event) allocate nothing once warm,
 * measured with the thread's allocated-bytes counter as the engine's {@code HotPathAllocationTest} does.
 */
class CodecAllocationTest
{
    private static final int WARM_UP = 1_000_000;
    private static final int MEASURED = 500_000;
    private static final int ROUNDS = 3;

    private final EventEncoder eventEncoder = new EventEncoder();
    private final EventDecoder eventDecoder = new EventDecoder();
    private final EventShape payments = EventShape.of(SchemaJournalTest.PAYMENTS);
    private final EventEncoder paymentEncoder = new EventEncoder(payments);
    private final EventDecoder paymentDecoder = new EventDecoder(payments);
    /** The payments as a journal that gained its last two columns: documents of generation 2, and of 1 read through 2. */
    private final EventShape gained = EventShape.of(AddedColumnsJournalTest.FOUR.extend(AddedColumnsJournalTest.SIX));
    private final EventEncoder gainedEncoder = new EventEncoder(gained);
    private final EventEncoder originalEncoder = new EventEncoder(EventShape.of(AddedColumnsJournalTest.FOUR));
    private final EventDecoder gainedDecoder = new EventDecoder(gained);
    private final ResultEncoder resultEncoder = new ResultEncoder();
    private final LateEventEncoder lateEncoder = new LateEventEncoder();
    private final OutputDecoder outputDecoder = new OutputDecoder();
    private final StoredResult result = new StoredResult(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    private final Bytes<?> bytes = Bytes.allocateElasticDirect(256);
    private long sink;

    @Test
    void encodingAndDecodingAllocateNothing()
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARM_UP; i++)
        {
            roundTrips(i);
        }
        // the least of a few rounds: a round can see a one-off allocation (e.g. a late JIT recompilation),
        // while an allocation per round trip shows in every round
        final long threadId = Thread.currentThread().getId();
        long allocated = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++)
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < MEASURED; i++)
            {
                roundTrips(i);
            }
            allocated = Math.min(allocated, threads.getThreadAllocatedBytes(threadId) - before);
        }
        assertEquals(0, allocated, "bytes allocated by " + MEASURED + " event, result and late-event round trips (least of " + ROUNDS + " rounds)");
        assertEquals(true, sink != 0, "the decoded fields were read");
        bytes.releaseLast();
    }

    private void roundTrips(final int i)
    {
        bytes.clear();
        eventEncoder.wrap(bytes, false).eventId(i).eventTime(i).value(i).keyId(i).line(i);
        if (eventDecoder.wrap(bytes))
        {
            sink += eventDecoder.eventId() + eventDecoder.eventTime() + eventDecoder.value() + eventDecoder.keyId() + eventDecoder.line();
        }
        bytes.clear();
        paymentEncoder.wrap(bytes, false).eventId(i).eventTime(i).stringId(0, i).stringId(1, i).stringId(2, i).longColumn(3, i)
            .longColumn(4, i).stringId(5, i).line(i);
        if (paymentDecoder.wrap(bytes))
        {
            sink += paymentDecoder.eventId() + paymentDecoder.stringId(0) + paymentDecoder.stringId(2) + paymentDecoder.longColumn(3)
                + paymentDecoder.longColumn(4) + paymentDecoder.stringId(5) + paymentDecoder.line();
        }
        bytes.clear();
        gainedEncoder.wrap(bytes, false).eventId(i).eventTime(i).stringId(0, i).stringId(1, i).longColumn(2, i).longColumn(3, i)
            .stringId(4, i).longColumn(5, i).line(i);
        if (gainedDecoder.wrap(bytes))
        {
            sink += gainedDecoder.stringId(0) + gainedDecoder.longColumn(3) + gainedDecoder.stringId(4) + gainedDecoder.longColumn(5)
                + gainedDecoder.line();
        }
        bytes.clear();
        originalEncoder.wrap(bytes, false).eventId(i).eventTime(i).stringId(0, i).stringId(1, i).longColumn(2, i).longColumn(3, i).line(i);
        if (gainedDecoder.wrap(bytes))
        {
            sink += gainedDecoder.stringId(1) + gainedDecoder.longColumn(2) + gainedDecoder.stringId(4) + gainedDecoder.longColumn(5)
                + gainedDecoder.line();
        }
        bytes.clear();
        resultEncoder.wrap(bytes, (i & 1) == 0).copy(result);
        if (outputDecoder.wrap(bytes) != 0 && outputDecoder.result().matches(result, (i & 1) == 0))
        {
            sink += outputDecoder.result().aggregate() + outputDecoder.result().sum();
        }
        bytes.clear();
        lateEncoder.wrap(bytes).eventId(i).eventTime(i).value(i).offset(i).keyId(i);
        if (outputDecoder.wrap(bytes) != 0 && outputDecoder.isLate())
        {
            sink += outputDecoder.late().eventId() + outputDecoder.late().offset();
        }
    }
}
