package com.example.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.weir.engine.Pipeline;
import dev.weir.engine.PipelineFailedException;
import dev.weir.engine.PipelineState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A following pipeline whose result listener throws (a downstream that refuses the alert): the failure
 * reaches the service's failure listener within a second of the payment that caused it, and stopping the
 * pipeline rethrows it.
 */
final class FollowingFailureTest
{
    @TempDir
    Path dir;

    @Test
    void failureOfAFollowingPipelineReachesItsListenerWithinASecond() throws InterruptedException
    {
        new PaymentsJournal(dir).close();
        final CountDownLatch failed = new CountDownLatch(1);
        final AtomicReference<Throwable> cause = new AtomicReference<>();
        final Pipeline pipeline = SpendRule.on(dir)
            .onResult(r ->
            {
                throw new IllegalStateException("alert sink refused card " + r.keyId());
            })
            .onFailure(ex ->
            {
                cause.set(ex);
                failed.countDown();
            })
            .build()
            .start();
        try (PaymentsJournal payments = new PaymentsJournal(dir))
        {
            payments.append(1_000, "card-1", "999.99", "approved");
            payments.append(2_000, "card-1", "0.01", "approved");    // the early alert: its listener throws
            assertTrue(failed.await(1, TimeUnit.SECONDS), "the failure listener was not told within a second");
        }
        assertInstanceOf(IllegalStateException.class, cause.get());
        assertEquals(PipelineState.FAILED, pipeline.state());
        assertThrows(PipelineFailedException.class, pipeline::close);
    }
}
