package dev.weir.cli;

/**
 * The text of {@code --kafka}: one or more {@code HOST:PORT}, comma-separated (Kafka's {@code bootstrap.servers}).
 * Checked before any connection, so a typo is a one-line refusal (exit 2), not a minute of retries. Stateless.
 */
final class KafkaAddress
{
    private KafkaAddress()
    {
    }

    /**
     * @param text the text of {@code --kafka}.
     * @return it, trimmed, as bootstrap servers.
     * @throws BadInputException if an entry is not {@code HOST:PORT} with a port from 1 to 65535.
     */
    static String check(final String text)
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
                throw new BadInputException("--kafka " + text + ": not HOST:PORT (e.g. 127.0.0.1:39092; several comma-separated)");
            }
        }
        return servers;
    }
}
