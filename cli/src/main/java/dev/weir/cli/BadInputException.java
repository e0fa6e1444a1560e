package dev.weir.cli;

/**
 * A problem with what the user gave the command (a missing file, a file of the wrong shape, a journal
 * directory that is refused): reported as one line, exit code 2.
 */
final class BadInputException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    BadInputException(final String message)
    {
        super(message);
    }
}
