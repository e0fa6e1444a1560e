package dev.weir.journal;

import dev.weir.journal.codec.OutputDecoder;

/**
 * Receives the documents read from the output journal, one at a time, on the reading thread.
 */
@FunctionalInterface
public interface OutputConsumer
{
    /**
     * @param output the stored output: a result ({@link OutputDecoder#isResult()}) or a late event
     *               ({@link OutputDecoder#isLate()}). Valid only during this call: copy what you keep.
     */
    void onOutput(OutputDecoder output);
}
