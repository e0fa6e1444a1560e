package dev.weir.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rejected record as the rejected topic gets it: key, value and reason kept to 1,024 bytes, never cutting a UTF-8
 * character, with the full size said; small ones and nulls unchanged; Weir's headers only.
 */
final class RejectedRecordTest
{
    @Test
    void smallAndNullPartsAreForwardedAsTheyAre()
    {
        final byte[] small = {'1', ',', (byte)0xC3, (byte)0x28};
        assertSame(small, RejectedRecord.kept(small));
        assertNull(RejectedRecord.kept(null));
        final byte[] exact = new byte[RejectedRecord.KEPT_BYTES];
        assertSame(exact, RejectedRecord.kept(exact));
    }

    @Test
    void aLargePartKeepsItsFirstBytesAndSaysItsSize()
    {
        final byte[] huge = "9".repeat(1_048_400).getBytes(StandardCharsets.US_ASCII);
        assertEquals("9".repeat(1024) + "... (1048400 bytes in all; the first 1024 bytes are kept)",
            new String(RejectedRecord.kept(huge), StandardCharsets.US_ASCII));
    }

    @Test
    void aCutNeverSplitsACharacter() throws CharacterCodingException
    {
        final byte[] text = ("a".repeat(1023) + "é€".repeat(100)).getBytes(StandardCharsets.UTF_8); // é spans bytes 1023 and 1024
        final byte[] kept = RejectedRecord.kept(text);
        final String decoded = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(kept)).toString(); // strict: no split character
        assertEquals("a".repeat(1023) + "... (" + text.length + " bytes in all; the first 1023 bytes are kept)", decoded);
    }

    @Test
    void theRecordCarriesWeirsHeadersOnly()
    {
        final ConsumerRecord<byte[], byte[]> source = new ConsumerRecord<>("payments", 3, 42, new byte[] {'k'}, new byte[5_000]);
        source.headers().add("theirs", new byte[100_000]);
        final ProducerRecord<byte[], byte[]> out = RejectedRecord.of("payments-rejected", 1, source, "x".repeat(3_000));
        assertEquals("payments-rejected", out.topic());
        assertEquals(1, out.partition());
        assertArrayEquals(new byte[] {'k'}, out.key());
        assertTrue(out.value().length < 1_100, "the value is kept to 1,024 bytes and a note");
        assertEquals(Arrays.asList(OutputHeaders.SOURCE, OutputHeaders.OFFSET, OutputHeaders.REASON),
            Arrays.stream(out.headers().toArray()).map(h -> h.key()).toList());
        assertEquals("payments:3", OutputHeaders.text(out.headers(), OutputHeaders.SOURCE));
        assertEquals(42, OutputHeaders.number(out.headers(), OutputHeaders.OFFSET));
        assertTrue(OutputHeaders.text(out.headers(), OutputHeaders.REASON).endsWith("(3000 bytes in all; the first 1024 bytes are kept)"));
    }
}
