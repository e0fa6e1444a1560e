package dev.weir.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A source record the decoder refused, as the rejected topic holds it: its key and value, each kept to its first
 * {@value #KEPT_BYTES} bytes, and Weir's headers {@link OutputHeaders#SOURCE}, {@link OutputHeaders#OFFSET} and
 * {@link OutputHeaders#REASON} (the reason kept to {@value #KEPT_BYTES} bytes too). The source record's own headers
 * are not forwarded. A key or value that is cut is followed by {@code ... (N bytes in all; the first K bytes are
 * kept)}, where K is at most {@value #KEPT_BYTES} (a cut never splits a UTF-8 character), so a rejected record
 * stays a few KiB whatever the source record's size, and forwarding it cannot fail for size. A null key or value
 * stays null.
 * <p>
 * Stateless and thread-safe.
 */
final class RejectedRecord
{
    /** The most bytes of a rejected record's key, value or reason that are kept. */
    static final int KEPT_BYTES = 1024;

    private RejectedRecord()
    {
    }

    /**
     * @param topic     the rejected topic.
     * @param partition its partition to send to.
     * @param source    the source record.
     * @param reason    why it was refused.
     * @return the record to send.
     */
    static ProducerRecord<byte[], byte[]> of(final String topic, final int partition, final ConsumerRecord<byte[], byte[]> source,
        final String reason)
    {
        final ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(topic, partition, kept(source.key()), kept(source.value()));
        OutputHeaders.put(out.headers(), OutputHeaders.SOURCE, source.topic() + ":" + source.partition());
        OutputHeaders.put(out.headers(), OutputHeaders.OFFSET, Long.toString(source.offset()));
        out.headers().add(OutputHeaders.REASON, kept(String.valueOf(reason).getBytes(StandardCharsets.UTF_8)));
        return out;
    }

    /**
     * @param bytes a key, value or reason, or null.
     * @return it unchanged if at most {@value #KEPT_BYTES} bytes (or null), else its first bytes up to a character
     *         boundary followed by how many there were.
     */
    static byte[] kept(final byte[] bytes)
    {
        if (bytes == null || bytes.length <= KEPT_BYTES)
        {
            return bytes;
        }
        int end = KEPT_BYTES;
        for (int back = 0; back < 3 && (bytes[end] & 0xC0) == 0x80; back++)
        {
            end--; // bytes[end] continues a character: cut before the character's first byte
        }
        final byte[] note = ("... (" + bytes.length + " bytes in all; the first " + end + " bytes are kept)").getBytes(StandardCharsets.UTF_8);
        final byte[] out = Arrays.copyOf(bytes, end + note.length);
        System.arraycopy(note, 0, out, end, note.length);
        return out;
    }
}
