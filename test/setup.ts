/**
 * Test preload: tests run with private targets allowed (the fixture sites listen on 127.0.0.1) and
 * quiet logs unless TRAWL_LOG_LEVEL is set.
 */
process.env.TRAWL_ALLOW_PRIVATE_TARGETS ??= 'true';
process.env.TRAWL_LOG_LEVEL ??= 'silent';
