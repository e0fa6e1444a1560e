package dev.weir.journal;

import java.nio.file.Path;

/**
 * The {@code main} of a child JVM that {@link JvmFlagsTest} starts with chosen flags: it opens or creates the
 * journal named by its arguments and prints {@code opened analytics=VALUE} (the value of
 * {@value JvmFlags#ANALYTICS_PROPERTY} afterwards, then {@code announcer=VALUE} of Chronicle's announcer property and {@code tableStoreTimeoutMS=VALUE} of
 * {@value JvmFlags#TABLE_STORE_TIMEOUT_PROPERTY}), or, refused for missing flags, prints the exception's
 * message after {@code refused:} and exits with 3.
 */
final class JvmCheckChild
{
    static final int REFUSED = 3;

    private JvmCheckChild()
    {
    }

    /**
     * @param args {@code create DIR}, {@code open DIR} or {@code openOrCreate DIR}.
     */
    public static void main(final String[] args)
    {
        final Path dir = Path.of(args[1]);
        try
        {
            switch (args[0])
            {
                case "create":
                    JournalDirectory.create(dir);
                    break;
                case "open":
                    EventJournal.open(JournalDirectory.open(dir)).close();
                    break;
                case "openOrCreate":
                    EventJournal.openOrCreate(dir).close();
                    break;
                default:
                    throw new IllegalArgumentException(args[0]);
            }
        }
        catch (final JvmFlagsMissingException ex)
        {
            System.out.println("refused:" + ex.getMessage());
            System.out.flush();
            System.exit(REFUSED);
        }
        System.out.println("opened analytics=" + System.getProperty(JvmFlags.ANALYTICS_PROPERTY)
            + " announcer=" + System.getProperty(JvmFlags.ANNOUNCER_PROPERTY)
            + " tableStoreTimeoutMS=" + System.getProperty(JvmFlags.TABLE_STORE_TIMEOUT_PROPERTY));
        System.out.flush();
        System.exit(0); // Chronicle's background threads must not keep the child alive
    }
}
