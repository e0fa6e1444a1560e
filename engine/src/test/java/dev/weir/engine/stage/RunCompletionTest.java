package dev.weir.engine.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * What a run's completion keeps: the first failure (later ones ignored), a failure reported after
 * completion still counts, and the failure listener is told of the first failure only, once; an exception
 * it throws is added to that failure, not lost and not thrown to the failing thread.
 */
class RunCompletionTest
{
    @Test
    void theFirstFailureIsKeptAndToldOnceEvenAfterCompletion() throws InterruptedException
    {
        final List<Throwable> told = new ArrayList<>();
        final RunCompletion completion = new RunCompletion(told::add);
        completion.complete();
        assertTrue(completion.await(0, TimeUnit.SECONDS));
        final IllegalStateException closing = new IllegalStateException("closing failed");
        completion.fail(closing);
        completion.fail(new IllegalStateException("later"));
        completion.complete();
        assertSame(closing, completion.failure(), "a failure after completion counts; the first is kept");
        assertEquals(List.of(closing), told, "told of the first failure only");
    }

    @Test
    void aListenerThatThrowsIsAddedToTheFailure()
    {
        final IllegalStateException broken = new IllegalStateException("listener broke");
        final RunCompletion completion = new RunCompletion(cause ->
        {
            throw broken;
        });
        final IllegalStateException cause = new IllegalStateException("stage failed");
        completion.fail(cause);
        assertSame(cause, completion.failure());
        assertSame(broken, cause.getSuppressed()[0]);
    }
}
