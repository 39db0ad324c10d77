/**
 * Test page for tests/unit/ui-components.test.ts: mounts every shared component so Chromium can
 * drive them. Not part of the app bundle (nothing imports it); its texts are test fixtures.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import '../theme.css';
import {
  Avatar,
  BusyButton,
  Button,
  confirm,
  ContextMenu,
  EmptyState,
  MobileHeader,
  Modal,
  PopupMenu,
  PullToRefresh,
  Select,
  setToastTestMode,
  Spinner,
  toast,
  Tooltip,
  UiHost,
  ValidatedInput,
  announceNavigation,
} from '../index';

declare global {
  interface Window {
    harness: { log: string[]; resolveBusy?: () => void; refreshes: number };
  }
}
window.harness = { log: [], refreshes: 0 };
const log = (entry: string) => window.harness.log.push(entry);

function App() {
  const [modalOpen, setModalOpen] = useState(false);
  const [color, setColor] = useState<string | null>(null);
  return (
    <PullToRefresh onRefresh={() => void window.harness.refreshes++}>
      <MobileHeader title="Harness" onBack={() => log('back')} />
      <main style={{ padding: 16, display: 'grid', gap: 12, maxInlineSize: 480 }}>
        <Button id="open-modal" onClick={() => setModalOpen(true)}>
          Open modal
        </Button>
        <Modal open={modalOpen} onClose={() => setModalOpen(false)} title="Harness modal" footer={<Button id="modal-ok">OK</Button>}>
          <input id="modal-input" aria-label="Modal input" />
          <PopupMenu
            label="Nested menu"
            items={[{ label: 'Inner', onSelect: () => log('inner') }]}
            renderTrigger={(props) => (
              <button type="button" {...props} id="nested-trigger">
                Nested
              </button>
            )}
          />
          <Select
            id="modal-select"
            ariaLabel="Size"
            value={null}
            onChange={(value) => log(`modal-select:${value}`)}
            options={[
              { value: 's', label: 'Small' },
              { value: 'l', label: 'Large' },
            ]}
          />
        </Modal>

        <PopupMenu
          items={[
            { label: 'Alpha', onSelect: () => log('alpha') },
            { label: 'Beta', onSelect: () => log('beta'), disabled: true, disabledReason: 'Offline' },
            { label: 'Gamma', onSelect: () => log('gamma') },
          ]}
          renderTrigger={(props) => (
            <button type="button" {...props} id="menu-trigger">
              Menu
            </button>
          )}
        />

        <ContextMenu queryKey="ctx" items={[{ label: 'Rename', onSelect: () => log('rename') }]}>
          <div id="context-area" style={{ padding: 24, border: '1px dashed gray' }}>
            Right-click here
          </div>
        </ContextMenu>

        <Button id="show-toast" onClick={() => toast.show('Saved!', { kind: 'default' })}>
          Toast
        </Button>
        <Button id="show-sticky-toast" onClick={() => toast.show('Update ready', { duration: null, action: { label: 'Reload', run: () => log('reload') } })}>
          Sticky toast
        </Button>
        <Button id="ask" onClick={() => confirm().then((yes) => log(`confirm:${yes}`))}>
          Ask
        </Button>
        <Select
          id="color-select"
          ariaLabel="Colour"
          value={color}
          onChange={(value) => {
            setColor(value);
            log(`select:${value}`);
          }}
          searchable
          options={[
            { value: 'red', label: 'Red' },
            { value: 'green', label: 'Dark green', synonyms: ['forest'] },
            { value: 'blue', label: 'Blue' },
          ]}
        />
        <ValidatedInput id="email" label="E-mail" rules={['email']} validationMessage="Enter a valid email address" />
        <BusyButton id="busy" onClick={() => new Promise<void>((resolve) => (window.harness.resolveBusy = resolve))}>
          Save
        </BusyButton>
        <Avatar name="Ada Lovelace" subtitle="ada@example.com" />
        <Tooltip content="Helpful tip">
          <button type="button" id="tip-target">
            Hover me
          </button>
        </Tooltip>
        <Button id="navigate" onClick={() => announceNavigation()}>
          Navigate
        </Button>
        <Spinner />
        <EmptyState title="Nothing here" text="Create something" action={<Button variant="primary">Create</Button>} />
        <div style={{ blockSize: 1200 }} />
      </main>
    </PullToRefresh>
  );
}

setToastTestMode(new URLSearchParams(location.search).get('test_mode') === '1');
i18n.loadAndActivate({ locale: 'en', messages: {} });
createRoot(document.getElementById('root')!).render(
  <I18nProvider i18n={i18n}>
    <App />
    <UiHost />
  </I18nProvider>,
);
