import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './requests-lookup.en.json';
import id from './requests-lookup.id.json';

// The searching modal's texts: they load with the modal, not with the home page.
export const requestsLookupNamespace = 'requests-lookup';
registerNamespace(requestsLookupNamespace, { en, id });
