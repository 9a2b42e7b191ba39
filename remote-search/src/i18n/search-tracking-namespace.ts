import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './search-tracking.en.json';
import id from './search-tracking.id.json';

// A long text in a namespace of its own: only its page loads it, not the home page.
export const searchTrackingNamespace = 'search-tracking';
registerNamespace(searchTrackingNamespace, { en, id });
