package com.example.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;

import dev.weir.engine.PipelineFailedException;
import dev.weir.engine.PipelineService;
import dev.weir.engine.PipelineState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A following pipeline whose result listener throws (a downstream that refuses the alert): the service that owns
 * it waits on it and gets the failure as an exception, with no latch, hook or failure listener of its own.
 */
final class FollowingFailureTest
{
    @TempDir
    Path dir;

    @Test
    void failureOfAFollowingPipelineEndsTheOwnersWaitWithIt()
    {
        new PaymentsJournal(dir).close();
        final PipelineService service = SpendRule.on(dir)
            .onResult(r ->
            {
                throw new IllegalStateException("alert sink refused card " + r.key());
            })
            .buildService()
            .start();
        try (PaymentsJournal payments = new PaymentsJournal(dir))
        {
            payments.append(1_000, "card-1", "999.99", "approved");
            payments.append(2_000, "card-1", "0.01", "approved");    // the early alert: its listener throws
        }
        // generous for a loaded machine: the wait ends as soon as the failure is known
        final PipelineFailedException failed = assertThrows(PipelineFailedException.class, () -> service.awaitTermination(Duration.ofMinutes(2)));
        assertInstanceOf(IllegalStateException.class, failed.getCause());
        assertEquals("alert sink refused card card-1", failed.getCause().getMessage());
        assertEquals(PipelineState.FAILED, service.state());
        service.close(); // idempotent, and quiet: the failure was given
    }
}
