import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { pathFor } from '../../../../schema/routes';
import { Page } from '../../Page';
import './developer.css';

/** /profile/developer: where tokens, OAuth apps, webhooks and the API documentation are. */
export default function DeveloperPage() {
  return (
    <Page>
      <p>
        <Trans>Build integrations with the Cairn API: use a personal access token for your own scripts, register an OAuth app to act for other people, and get webhooks when things change.</Trans>
      </p>
      <div className="developer-cards">
        <section className="developer-card">
          <h2>
            <Link to={pathFor('profile.developer.tokens')}>
              <Trans>Access tokens</Trans>
            </Link>
          </h2>
          <p>
            <Trans>Tokens for scripts and tools, with the abilities you choose.</Trans>
          </p>
        </section>
        <section className="developer-card">
          <h2>
            <Link to={pathFor('profile.developer.apps')}>
              <Trans>OAuth apps</Trans>
            </Link>
          </h2>
          <p>
            <Trans>Apps that other people can allow to use Cairn for them.</Trans>
          </p>
        </section>
        <section className="developer-card">
          <h2>
            <Link to={pathFor('profile.developer.hooks')}>
              <Trans>Webhooks</Trans>
            </Link>
          </h2>
          <p>
            <Trans>Signed HTTP calls to your server when items, values or comments change.</Trans>
          </p>
        </section>
        <section className="developer-card">
          <h2>
            <a href="/api/docs" target="_blank" rel="noopener">
              <Trans>API documentation</Trans>
            </a>
          </h2>
          <p>
            <Trans>Every endpoint, how to authenticate, and the OpenAPI document.</Trans>
          </p>
        </section>
      </div>
      <p>
        <Link to={pathFor('profile.applications')}>
          <Trans>Apps you have authorised</Trans>
        </Link>
      </p>
    </Page>
  );
}
