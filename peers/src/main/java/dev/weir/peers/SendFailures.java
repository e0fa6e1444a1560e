package dev.weir.peers;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The send callback of the benchmark's producers: counts the records the broker did not take and keeps the first
 * failure, so that a lost record fails the run instead of silently changing the data. Thread-safe (called on the
 * producer's I/O thread, read by the sending thread after {@code flush()}).
 */
final class SendFailures implements Callback
{
    private final AtomicLong count = new AtomicLong();
    private final AtomicReference<Exception> first = new AtomicReference<>();

    @Override
    public void onCompletion(final RecordMetadata metadata, final Exception exception)
    {
        if (exception != null)
        {
            count.incrementAndGet();
            first.compareAndSet(null, exception);
        }
    }

    /** @return how many sends failed so far. */
    long count()
    {
        return count.get();
    }

    /** @return the first failure, or null. */
    Exception first()
    {
        return first.get();
    }
}
