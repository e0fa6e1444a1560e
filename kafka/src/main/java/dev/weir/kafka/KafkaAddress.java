package dev.weir.kafka;

/**
 * Kafka's {@code bootstrap.servers}: one or more {@code HOST:PORT}, comma-separated. Checked before any connection,
 * so a typo is refused at once, not after a minute of retries. Stateless.
 */
public final class KafkaAddress
{
    private KafkaAddress()
    {
    }

    /**
     * @param text bootstrap servers as a user gave them.
     * @return them, trimmed.
     * @throws IllegalArgumentException if an entry is not {@code HOST:PORT} with a port from 1 to 65535; its message
     *                                  starts with the text given.
     */
    public static String check(final String text)
    {
        final String servers = text.trim();
        for (final String server : servers.split(",", -1))
        {
            final int colon = server.lastIndexOf(':');
            final String host = colon > 0 ? server.substring(0, colon).trim() : "";
            int port = -1;
            if (colon > 0)
            {
                try
                {
                    port = Integer.parseInt(server.substring(colon + 1).trim());
                }
                catch (final NumberFormatException ex)
                {
                    port = -1;
                }
            }
            if (host.isEmpty() || port < 1 || port > 65_535)
            {
                throw new IllegalArgumentException(text + ": not HOST:PORT (e.g. 127.0.0.1:39092; several comma-separated)");
            }
        }
        return servers;
    }
}
